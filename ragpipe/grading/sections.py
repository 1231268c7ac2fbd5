"""The rules.yaml sections no single check owns: how attribution is read (the own-voice reading every
check of an answer's content sees) and how long an answer is graded.

The whole `Rules` model is assembled in rules.py from these and from the slice each check declares,
so modules the checks import cannot import rules.py (a cycle): they name the whole rules `AnyRules`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ragpipe.text.patterns import valid_regex

AnyRules = Any  # grading/rules.py: Rules, built from the sections below and the checks' slices


# The defaults of the fields below are what a rules file written before the field existed meant
# (its stored text must still grade the same); the shipped rules.yaml states every one of them.


# one of the sources after up to three words, or a citation mark ("in [2]"), which grading blanks with
# spaces before it reads the voice: three spaces in a row
_NAMED = (
    r"(?:(?:(?:the|a|an|this|that|these|those|its|their|our|your|each)\s+)?(?:[\w.&'’-]+\s+){{0,3}}?"
    r"(?:{})(?![\w-])|(?<=\s{{3}}))"
)


@lru_cache(maxsize=16)
def _expanded(markers: tuple[str, ...], sources: tuple[str, ...]) -> tuple[str, ...]:
    named = _NAMED.format("|".join(sources))
    return tuple(m.replace("{source}", named) for m in markers)


class Attribution(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Literal["none", "before_first", "prefix_aware", "clause"] = "clause"
    markers: list[str] = Field(default_factory=list)
    # What `{source}` in a marker stands for: the written thing an attribution names ("as shown in the
    # income statement", "is listed on page 45"), after up to three words. "Presented by Nick Knowles",
    # "listed on the New York Stock Exchange" and "based on the British show" name none: own voice.
    sources: list[str] = Field(default_factory=list)
    clause_ends: list[str] = Field(
        default_factory=lambda: ["but", "and", "while", "whereas", "so", "therefore", "thus"]
    )
    # Where an answer starts reproducing its source whole (a filing's cover page at a line's start): from
    # there to its end the answer is the source's voice. Matched as written (a cover is in capitals).
    reproductions: list[str] = Field(default_factory=list)

    @property
    def patterns(self) -> tuple[str, ...]:
        """The markers as matched: `{source}` read as one of `sources` (asked for every answer graded)."""
        return _expanded(tuple(self.markers), tuple(self.sources))

    @model_validator(mode="after")
    def _compiles(self) -> Attribution:
        if not self.sources and any("{source}" in m for m in self.markers):
            raise ValueError("a marker says {source} but attribution.sources lists none")
        for p in (*self.patterns, *self.reproductions):
            valid_regex(p)
        return self


class Trust(BaseModel):
    """The bound firmness promises (trust/bound.py): among firm verdicts people disagree with at most
    `alpha`, with probability at least 1 - `delta`, for answers drawn like the calibration ones."""

    model_config = ConfigDict(extra="forbid")
    alpha: float = Field(0.01, gt=0, lt=0.5)
    delta: float = Field(0.1, gt=0, lt=0.5)


class Answers(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max_chars: int = Field(20000, ge=1000, le=100_000)  # at most what an answer row stores
