"""Grade a whole answers table: the grades asset's one library call.

Pure and ordered: the same answers, questions, needles and rules give the
same rows in the same order, byte for byte. Each row carries `input_sha`, a
fingerprint of everything besides the grader version that its verdict
depends on (answer text, citations, engine error, the question row as
graded, the question's kept needles), so history can tell a changed input
from a changed ruler.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace

import pandas as pd

from ragpipe.corpus.questions import Question, question_from_row
from ragpipe.grading import outcomes
from ragpipe.grading.checks.view import KeyPlace
from ragpipe.grading.grade import GradeRecord, Verdict
from ragpipe.grading.grader import grade
from ragpipe.grading.rules import Rules
from ragpipe.inputs.fingerprint import digest as _digest
from ragpipe.warehouse.nulls import records


def grade_answers(
    answers: pd.DataFrame,
    questions: pd.DataFrame,
    needles: pd.DataFrame,
    rules: Rules,
    off: frozenset[str] = frozenset(),
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """One grade row per answer; `off` switches checks off by id (only to measure what each earns);
    `progress(done, total)` is called every hundredth of the way."""
    with _cycle_collector_paused():
        return GradeRecord.frame(_graded_rows(answers, questions, needles, rules, off, progress))


@contextmanager
def _cycle_collector_paused():
    """Grading makes and drops millions of small objects and leaves no cycles (reference counting frees
    them all: a run with the collector off leaves nothing for it), but their count triggers the cyclic
    collector's passes over every object of the process: a tenth of grading time, and more than half of
    building the table. Paused meanwhile, back as it was after, whatever happens."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


@dataclass(frozen=True, slots=True)
class _Input:
    """One answer as the grader reads it: its question (as graded), text, citations, whether the engine
    failed, the question's mined needles and key place, and the fingerprint of all of it (`input_sha`)."""

    answer: dict
    question: Question
    text: str
    citations: tuple[str, ...]
    failed: bool
    input_sha: str


def _inputs(answers: pd.DataFrame, questions: pd.DataFrame, needles: pd.DataFrame) -> Iterator[_Input]:
    """Each answer's grading input, in the grades' order: one reading for grading and for `input_shas`."""
    by_id = {row["question_id"]: question_from_row(row) for row in records(questions)}
    mined = mined_by_question(needles)
    places = key_places(needles)
    as_kind: dict[tuple[str, str], Question] = {}
    question_sha: dict[tuple[str, str], str] = {}
    for a in records(answers.sort_values(["answer_set", "question_id"])):
        q = by_id.get(a["question_id"])
        if q is None:
            raise KeyError(f"answer {a['answer_id']}: field question_id: unknown question {a['question_id']!r}")
        if isinstance(a.get("graded_as"), str):  # e.g. labelled imports, judged against the gold answer
            key = (q.id, a["graded_as"])
            if key not in as_kind:
                as_kind[key] = q.model_copy(update={"kind": a["graded_as"]})
            q = as_kind[key]
        failed = bool(a.get("error"))
        text = "" if failed else (a["answer"] or "")
        citations = () if failed else tuple(a["citations"])
        if (q.id, q.kind) not in question_sha:
            question_sha[(q.id, q.kind)] = _digest(
                json.dumps(
                    [q.model_dump(mode="json"), list(mined.get(q.id, ())), *([places[q.id]] if q.id in places else [])],
                    sort_keys=True,
                    default=str,
                )
            )
        input_sha = _digest(question_sha[(q.id, q.kind)], text, *citations, str(a.get("error")) if failed else "")
        yield _Input(a, q, text, citations, failed, input_sha)


def input_shas(answers: pd.DataFrame, questions: pd.DataFrame, needles: pd.DataFrame) -> dict[str, str]:
    """answer_id -> the `input_sha` a grading now would give it: a stored grade whose own differs was made
    on other inputs (a question's gold, key or needles edited since), whatever the grader."""
    return {i.answer["answer_id"]: i.input_sha for i in _inputs(answers, questions, needles)}


def _graded_rows(answers, questions, needles, rules: Rules, off, progress) -> list[GradeRecord]:
    mined = mined_by_question(needles)
    places = key_places(needles)
    verdicts: dict[tuple, dict] = {}  # grading is pure: an answer seen before for the same question is not re-read
    rows = []
    total, every = len(answers), max(1, len(answers) // 100)
    for done, i in enumerate(_inputs(answers, questions, needles), 1):
        if progress and (done % every == 0 or done == total):
            progress(done, total)
        q = i.question
        memo = (q.id, q.kind, i.text, i.citations, i.failed)
        if memo not in verdicts:
            verdicts[memo] = _verdict(
                q, i.text, list(i.citations), i.failed, rules, mined.get(q.id, ()), off, places.get(q.id)
            )
        rows.append(GradeRecord.of(i.answer, q.kind, verdicts[memo], rules.version, i.input_sha))
    return rows


def mined_by_question(needles: pd.DataFrame) -> dict[str, tuple[tuple[str, str, str], ...]]:
    """(needle, kind, source) of each question's kept needles: what `grade()` takes as `mined`."""
    kept = needles[needles["status"] == "kept"]
    return {
        qid: tuple(zip(group["needle"], group["kind"], group["source"]))
        for qid, group in kept.groupby("question_id", sort=True)
    }


def key_places(needles: pd.DataFrame) -> dict[str, KeyPlace]:
    """Where each question's money key stands in its document (needle_mining.py): the label of its line
    and the page's other labelled amounts, for the questions whose key has one."""
    if "label" not in needles.columns:  # needles mined before labels were read
        return {}
    kept = needles[(needles["status"] == "kept") & needles["label"].notna()]
    return {
        row["question_id"]: KeyPlace(row["label"], tuple(map(tuple, json.loads(row["page_labels"] or "[]"))))
        for row in records(kept)
    }


def _verdict(
    q: Question,
    text: str,
    citations: list[str],
    failed: bool,
    rules: Rules,
    mined: Sequence,
    off: frozenset[str],
    place: KeyPlace | None = None,
) -> dict:
    """One answer's verdict, as the table stores it; an engine error is graded as the empty answer,
    labelled as an error."""
    v = grade(q, text, citations, rules, mined, off, place)
    if failed:
        verdict = Verdict.WRONG if q.kind == "answerable" and not v.ungradable else v.verdict
        v = replace(
            v,
            verdict=verdict,
            failure=outcomes.ENGINE_FAILED,
            rule=outcomes.ENGINE_ERROR,
            firm=True,
            exact=True,
            confidence=1.0,
            confidence_why=("engine error",),
            checks=("engine",),
        )
    return v.columns()


def grade_pair(conn, corpus: str, config: str, rules: Rules) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(grades, answers) of one stored (corpus, configuration) under `rules`; nothing written."""
    from ragpipe.warehouse.tables import read_partition

    answers = read_partition(conn, "answers", {"corpus": corpus, "config": config})
    questions = read_partition(conn, "questions", {"corpus": corpus})
    needles = read_partition(conn, "needles", {"corpus": corpus})
    return grade_answers(answers, questions, needles, rules), answers
