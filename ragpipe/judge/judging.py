"""Judge one graded table: find what is missing, ask for it, and let the judgments decide.

`pending` lists the eligible answers no stored judgment covers (each input key once); `judge_table`
asks a configured judge about them (none with recorded verdicts: those are imported, never asked) and
returns the grades with every judgment applied. The caller stores the new judgments: the library never
writes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

import pandas as pd

from ragpipe.corpus.questions import Question
from ragpipe.judge.apply import apply_judgments, judged_inputs
from ragpipe.judge.ask import Asked, ask_missing
from ragpipe.judge.config import JudgeConfig, JudgeIdentity
from ragpipe.judge.keep import KeepRule
from ragpipe.judge.store import judgments_frame


def pending(
    grades: pd.DataFrame,
    answers: pd.DataFrame,
    questions: pd.DataFrame,
    stored: pd.DataFrame,
    judge_on: str,
    keep: Iterable[KeepRule] = (),
    budget: float | None = None,
) -> list[tuple[Question, str, str]]:
    """(question, answer text, input key) of each eligible answer without a stored judgment, once per key,
    the least confident first (a run a cap stops has asked about the verdicts the rules are least sure of)."""
    known = set(stored["input_key"])
    confidence = grades["confidence"].astype(float).fillna(0.0).tolist() if "confidence" in grades else None
    out: dict[str, tuple[float, Question, str, str]] = {}
    for pos, question, text, key in judged_inputs(grades, answers, questions, judge_on, keep, budget):
        if key not in known and key not in out:
            out[key] = (0.0 if confidence is None else confidence[pos], question, text, key)
    return [(q, t, k) for _, q, t, k in sorted(out.values(), key=lambda v: (v[0], v[3]))]


def answer_keys(conn) -> set[str]:
    """The input key of every stored answer, as its question reads and as it was graded (a kind may be
    graded otherwise): what a judgment must match to decide any grade."""
    from ragpipe.corpus.questions import question_from_row
    from ragpipe.judge.judgment import input_key
    from ragpipe.warehouse.nulls import records
    from ragpipe.warehouse.tables import table_exists

    if not (table_exists(conn, "answers") and table_exists(conn, "questions")):
        return set()
    questions = {(r["corpus"], r["question_id"]): question_from_row(r) for r in records(conn.table("questions").df())}
    graded = {}
    if table_exists(conn, "grades"):
        graded = dict(conn.execute("SELECT DISTINCT answer_id, kind FROM grades").fetchall())
    keys = set()
    for corpus, qid, aid, text in conn.execute("SELECT corpus, question_id, answer_id, answer FROM answers").fetchall():
        question = questions.get((corpus, qid))
        if question is None:
            continue
        keys.add(input_key(question, text or ""))
        kind = graded.get(aid)
        if kind and kind != question.kind:
            keys.add(input_key(question.model_copy(update={"kind": kind}), text or ""))
    return keys


def judge_table(
    grades: pd.DataFrame,
    answers: pd.DataFrame,
    questions: pd.DataFrame,
    stored: pd.DataFrame,
    identity: JudgeIdentity,
    config: JudgeConfig | None,
    judge_on: str = "tentative",
    progress: Callable[[Asked, int], None] | None = None,
    keep: Iterable[KeepRule] = (),
    budget: float | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, Asked]:
    """(grades with the judge applied, the new judgments to store, what asking came to)."""
    missing = pending(grades, answers, questions, stored, judge_on, keep, budget)
    asked = Asked(unjudged=len(missing))
    if config is not None and missing:
        asked = ask_missing(config, identity, missing, progress)
    new = judgments_frame(asked.judgments)
    every = pd.concat([stored, new], ignore_index=True) if len(new) else stored
    return apply_judgments(grades, answers, questions, every, judge_on, keep, budget), new, asked


def judge_rows(rows: list[dict], texts: list[str], questions: list[Question], run) -> list[dict]:
    """`ragpipe grade`'s rows (grading/adhoc.py) with a judge applied (`run`: grader_agreement's JudgeRun
    fields: identity, config, stored, judge_on, keep); the rows gain the judge's columns."""
    from ragpipe.corpus.questions import questions_frame

    kinds = {q.id: q.kind for q in questions}
    ids = [f"row-{i}" for i in range(len(rows))]
    grades = pd.DataFrame(
        {
            "answer_id": ids,
            "question_id": [r["question_id"] for r in rows],
            "kind": [kinds[r["question_id"]] for r in rows],
            "error": [None] * len(rows),
            **{c: [r[c] for r in rows] for c in ("verdict", "declined", "failure", "rule", "firm", "confidence")},
            "ungradable": [r["verdict"] == "ungradable" for r in rows],
            # what ZERO-WRONG-MONEY reads (judge/apply.py): a money question, and whether the key was stated
            "money_question": [bool(r.get("money_question")) for r in rows],
            "matched": [json.dumps(r.get("matched") or [], sort_keys=True) for r in rows],
        }
    )
    answers = pd.DataFrame({"answer_id": ids, "answer": texts})
    combined, run.new, run.asked = judge_table(
        grades,
        answers,
        questions_frame("adhoc", questions),
        run.stored,
        run.identity,
        run.config,
        run.judge_on,
        keep=run.keep,
        budget=run.budget,
    )
    columns = ("verdict", "declined", "failure", "rule", "firm", "rules_verdict", "rules_rule", "judge_verdict")
    out = []
    for row, judged in zip(rows, combined.to_dict("records")):
        out.append({**row, **{c: _plain(judged[c]) for c in (*columns, "judge_reason")}})
    return out


def _plain(value):
    """A table cell as plain Python: a missing value is None (JSON has no NaN)."""
    return None if value is None or value is pd.NA or (isinstance(value, float) and value != value) else value
