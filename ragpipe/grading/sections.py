"""The rules.yaml sections no single check owns: how declines are told (the decline check and the
own-voice reading both use them), how attribution is read, how long an answer is graded.

The whole `Rules` model is assembled in rules.py from these and from the slice each check declares,
so modules the checks import cannot import rules.py (a cycle): they name the whole rules `AnyRules`.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ragpipe.grading.patterns import DeclinePattern, valid_regex

AnyRules = Any  # grading/rules.py: Rules, built from the sections below and the checks' slices


class Exclusion(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phrase: str
    reason: str = Field(min_length=1)


class DeclineGrammar(BaseModel):
    """The parts declines are composed of; see grading/decline_grammar.py."""

    model_config = ConfigDict(extra="forbid")
    sources: list[str] = Field(default_factory=list)
    telling_verbs: list[str] = Field(default_factory=list)
    covering_verbs: list[str] = Field(default_factory=list)
    participles: list[str] = Field(default_factory=list)
    inabilities: list[str] = Field(default_factory=list)
    unwilling: list[str] = Field(default_factory=list)  # phrases: "won't", "would rather not", "must decline to"

    @field_validator("unwilling")
    @classmethod
    def _phrases(cls, v: list[str]) -> list[str]:
        bad = [p for p in v if not re.fullmatch(r"[a-z0-9][a-z0-9' -]*[a-z]", p)]
        if bad:
            raise ValueError(f"unwilling phrases are lower-case words: {bad}")
        return v

    @field_validator("sources", "telling_verbs", "covering_verbs", "participles", "inabilities")
    @classmethod
    def _words(cls, v: list[str]) -> list[str]:
        bad = [w for w in v if not re.fullmatch(r"[a-z0-9][a-z0-9'-]*", w)]
        if bad:
            raise ValueError(f"grammar parts are single lower-case words: {bad}")
        return v


class Declines(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phrases: list[str] = Field(min_length=1)
    patterns: list[DeclinePattern] = Field(default_factory=list)
    grammar: DeclineGrammar = Field(default_factory=DeclineGrammar)
    exclusions: list[Exclusion] = Field(default_factory=list)
    # matched only where the answer opens (re.match on the lower-cased answer): "I can't ..." with any verb
    # refuses when an answer starts with it, and is an aside in the middle of one that answers
    openings: list[DeclinePattern] = Field(default_factory=list)

    @field_validator("phrases")
    @classmethod
    def _no_blank(cls, v: list[str]) -> list[str]:
        if any(not p.strip() for p in v):
            raise ValueError("decline phrases must not be blank")
        return v


# The defaults of the fields below are what a rules file written before the field existed meant
# (its stored text must still grade the same); the shipped rules.yaml states every one of them.


class Assertions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scope: Literal["anywhere", "before_first_decline"] = "anywhere"
    turn_asserts_any_claim: bool = False
    hypothetical_markers: list[str] = Field(default_factory=list)
    pivots: list[str] = Field(
        default_factory=lambda: ["however", "but", "that said", "nevertheless", "nonetheless", "still", "instead"]
    )
    exchange_words: list[str] = Field(
        default_factory=lambda: [
            "i",
            "i'm",
            "i've",
            "i'd",
            "i'll",
            "me",
            "my",
            "we",
            "we're",
            "us",
            "our",
            "you",
            "you're",
            "your",
        ]
    )
    general_words: list[str] = Field(
        default_factory=lambda: [
            "may",
            "might",
            "can",
            "cannot",
            "should",
            "must",
            "generally",
            "in general",
            "important to note",
            "varies",
            "vary",
            "depend",
            "depends",
            "usually",
            "often",
            "such as",
            "like",
        ]
    )
    small_number: int = Field(10, ge=0)
    turn_within_sentence: bool = False

    @field_validator("hypothetical_markers")
    @classmethod
    def _compiles(cls, v: list[str]) -> list[str]:
        return [valid_regex(p) for p in v]


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
