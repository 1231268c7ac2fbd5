"""Run an engine over a question set: one answer row per question, timed.

An engine that raises does not end the run: the question gets a row with
`error` set and no answer, and the next question is asked.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Callable

import pandas as pd

from ragpipe.engines.base import Engine, EngineAnswer, RetrievalContext
from ragpipe.questions import Question

ANSWER_COLUMNS = [
    "corpus", "config", "answer_set", "question_id", "answer_id", "answer", "citations", "cited_chunks",
    "latency_ms", "engine", "engine_settings", "error", "label", "graded_as",
]


def answer_id(corpus: str, config: str, answer_set: str, question_id: str) -> str:
    """Stable id of the answer slot, so regrades and history join on it."""
    return hashlib.sha256(f"{corpus}\0{config}\0{answer_set}\0{question_id}".encode()).hexdigest()[:16]


def answer_questions(
    engine: Engine,
    questions: list[Question],
    context: RetrievalContext,
    corpus: str,
    config: str,
    answer_set: str,
    settings: dict,
    progress: Callable[[Question], None] | None = None,
) -> pd.DataFrame:
    rows = []
    recorded = json.dumps(settings, sort_keys=True)
    for q in questions:
        start = time.perf_counter()
        try:
            result = engine.answer(q, context)
        except Exception as exc:  # the engine's failure is data, not a crash
            result = EngineAnswer(error=f"{type(exc).__name__}: {exc}")
        latency = (time.perf_counter() - start) * 1000
        rows.append([
            corpus, config, answer_set, q.id, answer_id(corpus, config, answer_set, q.id), result.answer,
            result.citations, result.cited_chunks, round(latency, 3), engine.name, recorded, result.error, None, None,
        ])
    return pd.DataFrame(rows, columns=ANSWER_COLUMNS)


def imported_answers(labels: pd.DataFrame, corpus: str, config: str) -> pd.DataFrame:
    """Human-labelled answers as answer sets (engine `import`, one set per file).

    People judged these answers against the gold answer with the whole filing
    available upstream, so they are graded as answerable (`graded_as`) even
    where this corpus lacks the filing; the person's verdict rides along as
    `label` for the agreement asset.
    """
    rows = []
    for r in labels.sort_values(["answer_set", "question_id", "line"]).to_dict("records"):
        settings = json.dumps({"model": r["model"], "mode": r["mode"], "file": r["file"]}, sort_keys=True)
        rows.append([
            corpus, config, r["answer_set"], r["question_id"], answer_id(corpus, config, r["answer_set"], r["question_id"]),
            r["answer"], [], [], None, "import", settings, None, r["label"], "answerable",
        ])
    return pd.DataFrame(rows, columns=ANSWER_COLUMNS)
