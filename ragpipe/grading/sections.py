"""The rules.yaml sections no single check owns: how attribution is read (the own-voice reading every
check of an answer's content sees) and how long an answer is graded.

The whole `Rules` model is assembled in rules.py from these and from the slice each check declares,
so modules the checks import cannot import rules.py (a cycle): they name the whole rules `AnyRules`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ragpipe.text.patterns import valid_regex

AnyRules = Any  # grading/rules.py: Rules, built from the sections below and the checks' slices


# The defaults of the fields below are what a rules file written before the field existed meant
# (its stored text must still grade the same); the shipped rules.yaml states every one of them.


class Attribution(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Literal["none", "before_first", "prefix_aware", "clause"] = "clause"
    markers: list[str] = Field(default_factory=list)
    clause_ends: list[str] = Field(
        default_factory=lambda: ["but", "and", "while", "whereas", "so", "therefore", "thus"]
    )

    @field_validator("markers")
    @classmethod
    def _compiles(cls, v: list[str]) -> list[str]:
        return [valid_regex(p) for p in v]


class Answers(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max_chars: int = Field(20000, ge=1000, le=100_000)  # at most what an answer row stores
