"""One grade row: the verdict on one answer, the rule that decided it, and what it was graded from."""

from __future__ import annotations

from dataclasses import dataclass

from ragpipe.warehouse.record import Record


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the grader decided about one answer text; the same text for the same question decides the same."""

    verdict: str  # correct | partial | wrong
    declined: bool
    failure: str | None  # the failure class, in words
    rule: str  # the rule that decided, e.g. money.wrong_figure
    money_question: bool
    wrong_money: tuple[str, ...]  # asserted money figures that are not the key
    matched: str  # JSON: the needles and keys found, with where
    ungradable: bool
    truncated: bool  # graded on the answer's first `answers.max_chars` characters
    firm: bool  # rests on exact evidence (see grading/checks/view.py: Finding)
    checks: str  # the checks that found something, in the order they ran, comma-separated


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

    @classmethod
    def of(cls, answer: dict, kind: str, decided: Verdict, grader_version: str, input_sha: str) -> GradeRecord:
        return cls(
            corpus=answer["corpus"],
            config=answer["config"],
            answer_set=answer["answer_set"],
            question_id=answer["question_id"],
            answer_id=answer["answer_id"],
            kind=kind,
            verdict=decided.verdict,
            declined=decided.declined,
            failure=decided.failure,
            rule=decided.rule,
            money_question=decided.money_question,
            wrong_money=list(decided.wrong_money),
            matched=decided.matched,
            ungradable=decided.ungradable,
            error=answer.get("error"),
            grader_version=grader_version,
            input_sha=input_sha,
            truncated=decided.truncated,
            firm=decided.firm,
            checks=decided.checks,
        )
