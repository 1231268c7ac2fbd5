"""Measures: what each of the answer's own figures is stated as, against the measure the question asks
(text/measures.py), under rules.yaml's `measures`: the qualifiers that tell two measures apart and the
words of a sentence that compares.

Off, no figure is stated as any measure: nothing states the asked measure or another one (the clause
ends and the retracted figures, which are no measure, are still read)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ragpipe.grading.readings.unit import Reading
from ragpipe.text.measures import NO_JUDGEMENT, MeasureJudgement, MeasureReading
from ragpipe.text.patterns import Regex


class Measures(BaseModel):
    """rules.yaml `measures`. The defaults are what a rules file written before the section meant."""

    model_config = ConfigDict(extra="forbid")
    # two different qualifiers of one family are two measures ("segment" profit is not "operating" income)
    qualifier_families: tuple[tuple[str, ...], ...] = Field(
        default_factory=lambda: (
            ("gross", "operating", "segment", "net", "pretax", "comprehensive"),
            ("declare", "pay", "authorize", "approve", "spend", "accrue", "propose"),
            ("basic", "diluted"),
        )
    )
    # a sentence holding one of these (each a regex of a whole word) compares: its figures may be another
    # period's or another part's, so a figure other than the key stated for the asked measure is no contradiction
    compares: tuple[Regex, ...] = Field(
        default_factory=lambda: (
            "compared", "comparison", "versus", "vs", "from", "prior", "previous", "last", "preceding", "earlier",
            "increased?", "decreased?", "rose", "fell", "grew", "declined", "changed?", "year-over-year", "yoy",
            "respectively",
        )
    )  # fmt: skip

    @property
    def judgement(self) -> MeasureJudgement:
        """Made once per families and words (`MeasureJudgement.of`), not cached on the model: a copy with
        other words reads its own."""
        return MeasureJudgement.of(self.qualifier_families, self.compares)


def _read(view, rules) -> MeasureReading:
    return MeasureReading(view.asked.measure, view.text, view.figures, rules.measures.judgement)


def _absent(view) -> MeasureReading:
    return MeasureReading(frozenset(), view.text, view.figures, NO_JUDGEMENT)


READING = Reading(
    "measures",
    "the measure each figure is stated as, against the one asked (text/measures.py)",
    sections={"measures": Measures},
    read=_read,
    absent=_absent,
)
