"""The judge as the last check: which answers it is asked about, and how its judgment decides a grade.

Asked only where the rule-based verdict is tentative (`judge_on="tentative"`, the default: an
ungradable answer is tentative too), or on every answer (`"all"`); never on an engine's error. A
judgment decides as the rules' own findings do: correct -> `correct`; incorrect -> `wrong`; declined
-> the `declined` flag with the verdict the decline check gives for the question's kind (right on a
negative or ambiguous question, wrong on an answerable one). The judge never says `partial`. The rule
is `judge.<verdict>`; the rule-based verdict, its rule and the judge's reason stay on the row. An
unparsed reply changes nothing but `judge_verdict`, and so does a verdict the question's kind does not
allow ("correct" on a negative question, however it came: asked, batch or recorded). A judged grade is a
reading, not a quote: tentative. A verdict the judge's `keep:` list holds (judge/keep.py: by question kind
and deciding rule) is neither asked about nor overturned.

ZERO-WRONG-MONEY stays the rules': whatever a configuration keeps, no judge is asked about a money
violation (a `money.*` verdict, `ambiguous.money.*` too: its failure is the wrong money figure, firm or
tentative) nor overturns one, and a judge's "correct" on a money question whose answer
does not state the key decides nothing (stored, and read as `unparsed`, saying why). A lenient judge once
turned "The cleaning fee is $175" (key $150) into a correct verdict.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pandas as pd

from ragpipe.corpus.kinds import declining_is_right
from ragpipe.corpus.questions import Question, question_from_row
from ragpipe.grading import outcomes
from ragpipe.grading.grade import Verdict
from ragpipe.judge.judgment import input_key
from ragpipe.judge.keep import KeepRule, kept
from ragpipe.judge.verdicts import CORRECT, DECLINED, INCORRECT, JUDGE_ON, UNPARSED, allowed_verdicts
from ragpipe.warehouse.nulls import records

MONEY_CORRECT_REFUSED = (
    "the judge said 'correct' of a money answer that does not state the key: ZERO-WRONG-MONEY keeps the rules' verdict"
)


def eligible(
    grades: pd.DataFrame, judge_on: str, keep: Iterable[KeepRule] = (), budget: float | None = None
) -> pd.Series:
    """Which grade rows the judge is asked about: tentative ones (or all), never an engine's error, never one
    `keep` holds, never a money violation (of any question kind); with a `budget` (a share of the answers), at most that
    share of them, the least confident first (ties in the grades' order)."""
    if judge_on not in JUDGE_ON:
        raise ValueError(f"judge_on takes {' or '.join(JUDGE_ON)}, not {judge_on!r}")
    asked = grades["error"].isna()
    asked = asked if judge_on == "all" else asked & ~grades["firm"].astype(bool)
    asked = asked & (grades["failure"] != outcomes.WRONG_MONEY)  # built in: whatever a configuration keeps
    keep = tuple(keep)
    if keep:
        held = [kept(keep, kind, rule) for kind, rule in zip(grades["kind"], grades["rule"])]
        asked = asked & ~pd.Series(held, index=grades.index, dtype=bool)
    if budget is not None:
        asked = _least_confident(grades, asked, int(budget * len(grades)))
    return asked


def _least_confident(grades: pd.DataFrame, asked: pd.Series, limit: int) -> pd.Series:
    """`asked` cut to its `limit` least confident rows (rows graded before confidence was measured count
    as unsure as can be, 0)."""
    if int(asked.sum()) <= limit:
        return asked
    known = "confidence" in grades
    confidence = grades["confidence"].astype(float).fillna(0.0) if known else pd.Series(0.0, index=grades.index)
    order = sorted((c, i) for i, (c, a) in enumerate(zip(confidence, asked)) if a)
    chosen = {i for _, i in order[:limit]}
    return pd.Series([i in chosen for i in range(len(grades))], index=grades.index, dtype=bool)


def judged_inputs(
    grades: pd.DataFrame,
    answers: pd.DataFrame,
    questions: pd.DataFrame,
    judge_on: str,
    keep: Iterable[KeepRule] = (),
    budget: float | None = None,
) -> Iterator[tuple[int, Question, str, str]]:
    """(row position, the question as graded, the answer text, its input key) of each row the judge is
    asked about, in the grades' order."""
    by_id = {row["question_id"]: question_from_row(row) for row in records(questions)}
    texts = dict(zip(answers["answer_id"], answers["answer"]))
    as_kind: dict[tuple[str, str], Question] = {}
    for pos, (take, qid, aid, kind) in enumerate(
        zip(eligible(grades, judge_on, keep, budget), grades["question_id"], grades["answer_id"], grades["kind"])
    ):
        if not take:
            continue
        key = (qid, kind)
        if key not in as_kind:
            q = by_id[qid]
            as_kind[key] = q if q.kind == kind else q.model_copy(update={"kind": kind})
        text = texts.get(aid) or ""
        yield pos, as_kind[key], text, input_key(as_kind[key], text)


def apply_judgments(
    grades: pd.DataFrame,
    answers: pd.DataFrame,
    questions: pd.DataFrame,
    judgments: pd.DataFrame,
    judge_on: str = "tentative",
    keep: Iterable[KeepRule] = (),
    budget: float | None = None,
) -> pd.DataFrame:
    """`grades` with each stored judgment (of one judge: `judgments` by input_key) deciding its row."""
    said = {k: (v, r) for k, v, r in zip(judgments["input_key"], judgments["verdict"], judgments["reason"])}
    out = grades.copy()
    for column in ("rules_verdict", "rules_rule", "judge_verdict", "judge_reason", "judge_key"):
        out[column] = out[column].astype(object) if column in out else None
    if "confidence" in out:  # a judged row's confidence is none: the columns must hold a None
        out["confidence"] = out["confidence"].astype(object)
        out["confidence_why"] = out["confidence_why"].astype(object) if "confidence_why" in out else None
    positions = {c: out.columns.get_loc(c) for c in out.columns}
    for pos, question, _, key in judged_inputs(grades, answers, questions, judge_on, keep, budget):
        if key not in said:
            continue
        verdict, reason = said[key]
        if verdict != UNPARSED and verdict not in allowed_verdicts(question.kind):  # recorded or batch verdicts too
            verdict, reason = UNPARSED, f"the judge said {verdict!r}, which a {question.kind} question does not allow"
        row = out.iloc[pos]
        if verdict == CORRECT and _money_without_key(row):
            verdict, reason = UNPARSED, f"{MONEY_CORRECT_REFUSED} ({reason})"
        cells = {"judge_verdict": verdict, "judge_reason": reason, "judge_key": key}
        if verdict != UNPARSED:
            cells |= {"rules_verdict": row["verdict"], "rules_rule": row["rule"], "firm": False}
            cells |= _decided(question.kind, verdict)
            if "confidence" in out:  # the rules' confidence was in their verdict, not the judge's: none is measured
                cells |= {"confidence": None, "confidence_why": f"judged; the rules' verdict: {row['confidence']}"}
        for column, value in cells.items():
            out.iat[pos, positions[column]] = value
    if "confidence" in out:  # a nullable number again, as the table stores it
        out["confidence"] = out["confidence"].astype("Float64")
    return out


def _money_without_key(row: pd.Series) -> bool:
    """A money question's grade whose answer does not state the key (no `money_key` span among its marks)."""
    if not bool(row.get("money_question", False)):
        return False
    return '"kind": "money_key"' not in str(row.get("matched") or "")


def _decided(kind: str, verdict: str) -> dict:
    rule = outcomes.judge_rule(verdict)
    if verdict == CORRECT:
        return {"verdict": Verdict.CORRECT.value, "declined": False, "failure": None, "rule": rule, "ungradable": False}
    if verdict == INCORRECT:
        return {
            "verdict": Verdict.WRONG.value,
            "declined": False,
            "failure": outcomes.NOT_DECLINED if kind == "negative" else outcomes.JUDGED_INCORRECT,
            "rule": rule,
            "ungradable": False,
        }
    assert verdict == DECLINED, verdict
    right = declining_is_right(kind)
    failure = None if right else outcomes.DECLINED_ANSWERABLE
    return {
        "verdict": (Verdict.CORRECT if right else Verdict.WRONG).value,
        "declined": True,
        "failure": failure,
        "rule": rule,
        "ungradable": False,
    }
