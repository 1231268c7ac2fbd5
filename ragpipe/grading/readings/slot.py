"""Slot: the name an answer asserts the question's predicate of ("Which segment had the highest margin?"
answered "Kitchenware had the highest margin"; text/slot.py), under rules.yaml's `slot`: the verbs that
open a slot. Off, no answer fills a slot: a name is met or not as any needle is."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ragpipe.grading.readings.unit import Reading
from ragpipe.text.slot import slot_filler


class Slot(BaseModel):
    """rules.yaml `slot`. The default is what a rules file written before the section meant."""

    model_config = ConfigDict(extra="forbid")
    # the verbs of a which/who question's predicate ("Which product line had ..."), and of the answer's echo
    verbs: tuple[str, ...] = Field(
        default_factory=lambda: (
            "had", "has", "have", "was", "were", "is", "are", "posted", "recorded", "reported", "generated", "saw",
            "made", "earned", "grew", "led", "won",
        ),
        min_length=1,
    )  # fmt: skip

    @field_validator("verbs")
    @classmethod
    def _words(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        bad = [v for v in value if not v.replace(" ", "").isalpha()]
        if bad:
            raise ValueError(f"a verb is words, not {bad[0]!r}")
        return value


READING = Reading(
    "slot",
    "the name an answer asserts the question's predicate of (text/slot.py)",
    sections={"slot": Slot},
    read=lambda view, rules: slot_filler(view.text, view.asked.slot, rules.slot.verbs),
    absent=lambda view: None,
)
