"""Reason: whether the question asks why ("Why did ...", "What drove ..."; text/gold_clause.py), under
rules.yaml's `reason`. Where it does, an answer sharing only the gold's where or when ("on its European
routes") shares no reason. Off, no question asks why."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ragpipe.grading.readings.unit import Reading
from ragpipe.text.patterns import Regex


class Reason(BaseModel):
    """rules.yaml `reason`. The default is what a rules file written before the section meant."""

    model_config = ConfigDict(extra="forbid")
    # how a question that asks for a reason opens (regexes, matched case-blind after any punctuation)
    why_questions: tuple[Regex, ...] = Field(
        default_factory=lambda: (
            r"why\b",
            r"what\s+(?:drove|drives|caused|causes|led\s+to|explains|explained)\b",
            r"what\s+(?:was|were|is|are)\s+the\s+(?:main\s+|primary\s+|key\s+)?(?:reasons?|drivers?|causes?)\b",
        )
    )


READING = Reading(
    "reason",
    "whether the question asks for a reason (text/gold_clause.py)",
    sections={"reason": Reason},
    read=lambda view, rules: view.asked.why,  # rules.reason.why_questions, read with the question
    absent=lambda view: False,
)
