"""Reason: whether the question asks why ("Why did ...", "What drove ..."; text/gold_clause.py), under
rules.yaml's `reason`. Where it does, an answer sharing only the gold's where or when ("on its European
routes") shares no reason. Off, no question asks why."""

from __future__ import annotations

from functools import cached_property

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ragpipe.grading.readings.unit import Reading
from ragpipe.text.gold_clause import asks_why
from ragpipe.text.patterns import valid_regex


class Reason(BaseModel):
    """rules.yaml `reason`. The default is what a rules file written before the section meant."""

    model_config = ConfigDict(extra="forbid")
    # how a question that asks for a reason opens (regexes, matched case-blind after any punctuation)
    why_questions: list[str] = Field(
        default_factory=lambda: [
            r"why\b",
            r"what\s+(?:drove|drives|caused|causes|led\s+to|explains|explained)\b",
            r"what\s+(?:was|were|is|are)\s+the\s+(?:main\s+|primary\s+|key\s+)?(?:reasons?|drivers?|causes?)\b",
        ]
    )

    @field_validator("why_questions")
    @classmethod
    def _compiles(cls, value: list[str]) -> list[str]:
        for pattern in value:
            valid_regex(pattern)
        return value

    @cached_property
    def patterns(self) -> tuple[str, ...]:
        return tuple(self.why_questions)


def _read(view, rules) -> bool:
    return asks_why(view.question.text, rules.reason.patterns)


READING = Reading(
    "reason",
    "whether the question asks for a reason (text/gold_clause.py)",
    sections={"reason": Reason},
    read=_read,
    absent=lambda view: False,
)
