"""Stated: where an answer says what a gold's none says (there is none, the measure does not apply, the
quantity did not move: text/stated.py), under rules.yaml's `stated`: the words that say each. A gold
that is a none is met by them, and an opening that says it outweighs a later decline phrase
(checks/decline/none_given.py). Off, no answer says any of it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ragpipe.grading.readings.unit import Reading
from ragpipe.text.patterns import Regex
from ragpipe.text.stated import NOTHING_SAID, AnswerSays

_NEGATED_ANY = r"(?:\b(?:not|never)\b|n't\b)[^.,;:]{0,40}?\bany\b"


class Stated(BaseModel):
    """rules.yaml `stated`: for each thing a none says, regexes that say it (alternatives, case-blind).
    The defaults are what a rules file written before the section meant."""

    model_config = ConfigDict(extra="forbid")
    # "no", "none", "nothing", "zero", or a negation with "any" ("has not reported any"); a bare "not" is
    # too common to say so ("notes, not shares, are listed")
    absence: tuple[Regex, ...] = Field(default_factory=lambda: (r"\b(?:no|none|nothing|zero)\b", _NEGATED_ANY))
    inapplicable: tuple[Regex, ...] = Field(
        default_factory=lambda: (
            r"\b(?:not|n't|never)\b[^.;:]{0,40}?\b(?:relevant|useful|meaningful|applicable|appropriate|suitable)\b",
            r"\b(?:irrelevant|inapplicable|less relevant|less useful|less meaningful)\b",
        )
    )
    unchanged: tuple[Regex, ...] = Field(
        default_factory=lambda: (
            r"\b(?:flat|unchanged|zero|no change|in line with)\b",
            r"(?<![\w.,$])\$?0(?:\.0+)?(?:%|\s?percent)?(?![\w.,]\d|\w)",
        )
    )

    @property
    def says(self) -> AnswerSays:
        """Made once per words (`AnswerSays.of`), not cached on the model: a copy with other words reads its own."""
        return AnswerSays.of(
            (("absence", self.absence), ("inapplicable", self.inapplicable), ("unchanged", self.unchanged))
        )


READING = Reading(
    "stated",
    "where an answer says there is none, it does not apply, or it did not move (text/stated.py)",
    sections={"stated": Stated},
    read=lambda view, rules: rules.stated.says,
    absent=lambda view: NOTHING_SAID,
)
