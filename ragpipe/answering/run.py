"""Run an engine over a question set: one answer row per question, timed.

- An engine that raises does not end the run: the question gets a row with
  `error` set (and the raw body, when a service sent a malformed one).
- Up to `concurrency` questions are in flight at once (bounded thread pool).
- Each finished answer is handed to `on_answer` as it completes, so the
  caller can persist it at once; `done` holds answers a previous, killed run
  already persisted, and those questions are not asked again.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed

import pandas as pd

from ragpipe.answering.answer_row import MAX_ANSWER_CHARS, AnswerRecord, capped, capped_note
from ragpipe.answering.engines.base import Engine, EngineAnswer, RetrievalContext
from ragpipe.corpus.questions import Question
from ragpipe.inputs.text import valid_text
from ragpipe.warehouse.nulls import records

ANSWER_COLUMNS = AnswerRecord.columns()


def answer_id(corpus: str, config: str, answer_set: str, question_id: str) -> str:
    """Stable id of the answer slot, so regrades and history join on it."""
    return hashlib.sha256(f"{corpus}\0{config}\0{answer_set}\0{question_id}".encode()).hexdigest()[:16]


def settings_hash(engine_name: str, settings: dict) -> str:
    return hashlib.sha256(json.dumps([engine_name, settings], sort_keys=True).encode()).hexdigest()[:16]


def _ask(
    engine: Engine, question: Question, context: RetrievalContext
) -> tuple[EngineAnswer, str | None, float, int | None]:
    """One question asked; what comes back is made valid text, redacted by the engine (`redact`, if it holds
    a secret) and capped (record.py), since it is kept as it is. Returns (answer, raw body, latency ms,
    the answer's full length when the kept text was cut)."""
    start = time.perf_counter()
    raw = None
    try:
        result = engine.answer(question, context)
    except Exception as exc:  # the engine's failure is data, not a crash
        raw = getattr(exc, "raw", None)
        result = EngineAnswer(error=f"{type(exc).__name__}: {exc}")
    measured = (time.perf_counter() - start) * 1000
    keep = _keeper(engine)
    answer, full_length = capped(keep(result.answer), MAX_ANSWER_CHARS)
    error = None if result.error is None else capped_note(keep(result.error))
    result = result.model_copy(update={"answer": answer, "error": error})
    raw = None if raw is None else capped_note(keep(str(raw)))
    return result, raw, result.latency_ms if result.latency_ms is not None else measured, full_length


def _keeper(engine: Engine) -> Callable[[str], str]:
    redact = getattr(engine, "redact", None)
    return lambda text: valid_text(redact(text) if redact else text)


def answer_questions(
    engine: Engine,
    questions: list[Question],
    context: RetrievalContext,
    corpus: str,
    config: str,
    answer_set: str,
    settings: dict,
    progress: Callable[[int, int], None] | None = None,
    concurrency: int = 1,
    done: dict[str, dict] | None = None,
    on_answer: Callable[[dict], None] | None = None,
) -> pd.DataFrame:
    done = done or {}
    recorded = json.dumps(settings, sort_keys=True)
    todo = [q for q in questions if q.id not in done]
    rows = [done[q.id] for q in questions if q.id in done]
    if progress:
        progress(len(rows), len(questions))
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        futures = {pool.submit(_ask, engine, q, context): q for q in todo}
        for future in as_completed(futures):
            q = futures[future]
            result, raw, latency, full_length = future.result()
            row = AnswerRecord(
                corpus=corpus,
                config=config,
                answer_set=answer_set,
                question_id=q.id,
                answer_id=answer_id(corpus, config, answer_set, q.id),
                answer=result.answer,
                citations=result.citations,
                cited_chunks=result.cited_chunks,
                latency_ms=round(latency, 3),
                prompt_tokens=result.prompt_tokens,
                completion_tokens=result.completion_tokens,
                engine=engine.name,
                engine_settings=recorded,
                error=result.error,
                raw=raw,
                truncated_from=full_length,
            ).row()
            if on_answer:
                on_answer(row)
            rows.append(row)
            if progress:
                progress(len(rows), len(questions))
    frame = pd.DataFrame(rows, columns=ANSWER_COLUMNS)
    return frame.sort_values("question_id", kind="stable").reset_index(drop=True)


def imported_answers(labels: pd.DataFrame, corpus: str, config: str) -> pd.DataFrame:
    """Human-labelled answers as answer sets (engine `import`, one set per file).

    People judged these answers against the gold answer with the whole filing
    available upstream, so they are graded as answerable (`graded_as`) even
    where this corpus lacks the filing; the person's verdict rides along as
    `label` for the agreement asset.
    """
    rows = []
    for r in records(labels.sort_values(["answer_set", "question_id", "line"])):
        settings = json.dumps({"model": r["model"], "mode": r["mode"], "file": r["file"]}, sort_keys=True)
        rows.append(
            AnswerRecord(
                corpus=corpus,
                config=config,
                answer_set=r["answer_set"],
                question_id=r["question_id"],
                answer_id=answer_id(corpus, config, r["answer_set"], r["question_id"]),
                answer=r["answer"],
                engine="import",
                engine_settings=settings,
                label=r["label"],
                graded_as="answerable",
            )
        )
    return AnswerRecord.frame(rows)
