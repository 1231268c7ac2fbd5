"""One grade: the verdict on one answer, the rule that decided it, and what it was graded from.

`Grade` is what `grade()` decides, in one shape from the grader to the table: `columns()` is its row in
`grades` (beside the answer's identity, `GradeRecord`), `json_row()` its line in `ragpipe grade --json`.
`Verdict` names the four verdicts, so no reader compares with a string it spelled itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

from ragpipe.warehouse.row import Record


class Verdict(StrEnum):
    """A grade's verdict. Stored as its plain word (`str(v)`)."""

    CORRECT = "correct"
    PARTIAL = "partial"
    WRONG = "wrong"
    UNGRADABLE = "ungradable"


VERDICTS: tuple[str, ...] = tuple(v.value for v in Verdict)  # in the scorecard's order


@dataclass(frozen=True, slots=True)
class Grade:
    """What the grader decided about one answer text, from `grade()` to the grades table: the same text
    for the same question decides the same. `columns()` is how the table stores it."""

    verdict: str  # a Verdict
    declined: bool
    failure: str | None  # the failure class, in words
    rule: str  # the rule that decided, e.g. money.wrong_figure
    money_question: bool
    wrong_money: tuple[str, ...] = ()  # asserted money figures that are not the key
    matched: tuple[dict, ...] = ()  # the spans a reader is shown: needles and keys found, declines, with where
    ungradable: bool = False
    truncated: bool = False  # graded on the answer's first `answers.max_chars` characters
    firm: bool = True  # nobody need look again: confidence at or above the bound's threshold (trust/)
    checks: tuple[str, ...] = ()  # the checks that found something, in the order they ran
    exact: bool = True  # the rules' own firmness: rests on exact evidence (grading/checks/view.py: Finding)
    never_firm: bool = False  # a finding's ceiling (Finding.never_firm): tentative whatever the confidence
    confidence: float = 1.0  # the chance a person classes the answer as the verdict does (trust/confidence.py)
    confidence_why: tuple[str, ...] = ()  # the evidence that moved the confidence most, with its pull

    def columns(self) -> dict:
        """The verdict as the grades table stores it: spans as JSON, checks comma-separated."""
        return {
            "verdict": str(self.verdict),
            "declined": self.declined,
            "failure": self.failure,
            "rule": self.rule,
            "money_question": self.money_question,
            "wrong_money": list(self.wrong_money),
            "matched": json.dumps(self.matched, sort_keys=True),
            "ungradable": self.ungradable,
            "truncated": self.truncated,
            "firm": self.firm,
            "checks": ",".join(self.checks),
            "exact": self.exact,
            "confidence": self.confidence,
            "confidence_why": "; ".join(self.confidence_why),
        }

    def json_row(self) -> dict:
        """The grade as `ragpipe grade --json` writes it: spans and checks as lists."""
        return {
            "verdict": str(self.verdict),
            "declined": self.declined,
            "money_question": self.money_question,
            "failure": self.failure,
            "rule": self.rule,
            "matched": list(self.matched),
            "truncated": self.truncated,
            "firm": self.firm,
            "confidence": self.confidence,
            "confidence_why": list(self.confidence_why),
            "exact": self.exact,
            "checks": list(self.checks),
        }


@dataclass(slots=True)
class GradeRecord(Record):
    corpus: str
    config: str
    answer_set: str
    question_id: str
    answer_id: str
    kind: str  # as graded: the question's kind, or the answer's `graded_as`
    verdict: str
    declined: bool
    failure: str | None
    rule: str
    money_question: bool
    wrong_money: list[str]
    matched: str
    ungradable: bool
    error: str | None  # the engine's error, when the answer is one
    grader_version: str
    input_sha: str  # everything besides the grader version the verdict depends on
    truncated: bool
    firm: bool
    checks: str
    # where a model judge decided (judge/): the rules' own verdict and rule, and what the judge said
    rules_verdict: str | None = None
    rules_rule: str | None = None
    judge_verdict: str | None = None  # correct | incorrect | declined | unparsed (the rules' verdict stood)
    judge_reason: str | None = None
    judge_key: str | None = None  # the judgment's input_key: grades join judgments on it (and the judge_id)
    # how sure the verdict is (trust/): none on rows graded before confidence was measured
    exact: bool | None = None
    confidence: float | None = None
    confidence_why: str | None = None

    @classmethod
    def of(cls, answer: dict, kind: str, verdict: dict, grader_version: str, input_sha: str) -> GradeRecord:
        """One answer's row: `verdict` is its `Verdict.columns()`."""
        return cls(
            corpus=answer["corpus"],
            config=answer["config"],
            answer_set=answer["answer_set"],
            question_id=answer["question_id"],
            answer_id=answer["answer_id"],
            kind=kind,
            error=answer.get("error"),
            grader_version=grader_version,
            input_sha=input_sha,
            **verdict,
        )
