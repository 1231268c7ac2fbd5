"""The decline check's slice of rules.yaml: `declines` (the phrases, idiom patterns, grammar parts,
openings and exclusions a decline is told by) and `assertions` (what, beside a decline, still answers).

A phrase that contains or overlaps an exclusion is refused where the rules are read: the exclusion
exists because that wording is real answers' vocabulary.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ragpipe.text.clashes import exclusion_clashes
from ragpipe.text.patterns import DeclinePattern, valid_regex


def _shaped(values: list[str], shape: str, what: str) -> list[str]:
    """`values` as they are when each is written as `shape` (a regex, whole); else an error naming the rest."""
    bad = [v for v in values if not re.fullmatch(shape, v)]
    if bad:
        raise ValueError(f"{what}: {bad}")
    return values


class Exclusion(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phrase: str
    reason: str = Field(min_length=1)


class DeclineGrammar(BaseModel):
    """The parts declines are composed of (rules.yaml `declines.grammar`); grammar.py builds the patterns."""

    model_config = ConfigDict(extra="forbid")
    sources: list[str] = Field(default_factory=list)
    telling_verbs: list[str] = Field(default_factory=list)
    covering_verbs: list[str] = Field(default_factory=list)
    holding_verbs: list[str] = Field(default_factory=list)  # "contain", "include": a source as subject or object
    participles: list[str] = Field(default_factory=list)
    absences: list[str] = Field(default_factory=list)  # "found": "not found", bare or in the material
    inabilities: list[str] = Field(default_factory=list)
    unwilling: list[str] = Field(default_factory=list)  # phrases: "won't", "would rather not", "must decline to"

    @field_validator("unwilling")
    @classmethod
    def _phrases(cls, v: list[str]) -> list[str]:
        return _shaped(v, r"[a-z0-9][a-z0-9' -]*[a-z]", "unwilling phrases are lower-case words")

    @field_validator(
        "sources", "telling_verbs", "covering_verbs", "holding_verbs", "participles", "absences", "inabilities"
    )
    @classmethod
    def _words(cls, v: list[str]) -> list[str]:
        return _shaped(v, r"[a-z0-9][a-z0-9'-]*", "grammar parts are single lower-case words")


GRAMMAR_PARTS = tuple(DeclineGrammar.model_fields)  # the order `Declines.key` gives the grammar's parts in


class Stance(BaseModel):
    """What an answer's opening can object to the question with (stance.py)."""

    model_config = ConfigDict(extra="forbid")
    # sentences that open an answer without being its opening ("Hello!", "I'm glad you asked!")
    pleasantries: list[str] = Field(default_factory=list)
    # an opening that judges the request instead of answering it, matched where the opening starts
    objections: list[DeclinePattern] = Field(default_factory=list)
    # questions that presuppose something ("Why should ...?"): an opening that restates them turned rebuts
    premise_questions: list[str] = Field(default_factory=list)
    # words that give a reason: an opening that holds one answers the why, whatever it restates
    explanations: list[str] = Field(default_factory=list)
    # questions that ask for a way to do something ("How can I ...?", "Where can I ...?") ...
    method_questions: list[str] = Field(default_factory=list)
    # ... and openings that judge the thing asked for instead of giving the way ("X is illegal and unethical")
    judged_methods: list[DeclinePattern] = Field(default_factory=list)

    @field_validator("pleasantries", "premise_questions", "method_questions")
    @classmethod
    def _compiles(cls, v: list[str]) -> list[str]:
        return [valid_regex(p) for p in v]


class Declines(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phrases: list[str] = Field(min_length=1)
    patterns: list[DeclinePattern] = Field(default_factory=list)
    grammar: DeclineGrammar = Field(default_factory=DeclineGrammar)
    exclusions: list[Exclusion] = Field(default_factory=list)
    # matched only where the answer opens (re.match on the lower-cased answer): "I can't ..." with any verb
    # refuses when an answer starts with it, and is an aside in the middle of one that answers
    openings: list[DeclinePattern] = Field(default_factory=list)
    stance: Stance = Field(default_factory=Stance)
    # the words a refusal on principle judges a request by ("not appropriate", "harmful", "privacy"): with
    # no gold answer, a decline that names none of them is tentative (on_principle.py); empty: all firm
    principles: list[str] = Field(default_factory=list)

    @field_validator("principles")
    @classmethod
    def _lower_words(cls, v: list[str]) -> list[str]:
        return _shaped(v, r"[a-z][a-z-]*", "principles are single lower-case words")

    @field_validator("phrases")
    @classmethod
    def _no_blank(cls, v: list[str]) -> list[str]:
        if any(not p.strip() for p in v):
            raise ValueError("decline phrases must not be blank")
        return v

    @model_validator(mode="after")
    def _no_phrase_is_an_exclusion(self) -> Declines:
        overlap = self.excluded & {p.lower() for p in self.phrases}
        if overlap:
            raise ValueError(f"{sorted(overlap)} both a phrase and an exclusion")
        clashes = exclusion_clashes(self.phrases, [e.phrase for e in self.exclusions])
        if clashes:
            raise ValueError("phrases: " + "; ".join(f"{p!r} {how} exclusion {e!r}" for p, how, e in clashes))
        return self

    @cached_property
    def excluded(self) -> set[str]:
        return {e.phrase.lower() for e in self.exclusions}

    @cached_property
    def key(self) -> tuple:
        """Everything the decline matcher is built from, hashable: the key of its compiled form."""
        g = self.grammar
        return (
            tuple(p for p in self.phrases if p.lower() not in self.excluded),
            tuple(p.pattern for p in self.patterns),
            tuple(p.pattern for p in self.openings),
            tuple(tuple(getattr(g, name)) for name in GRAMMAR_PARTS),
        )

    def model_copy(self, *, update=None, deep: bool = False) -> Declines:
        """A copy whose derived values (cached from the old fields) are computed afresh."""
        copy = super().model_copy(update=update, deep=deep)
        for name in ("excluded", "key"):
            copy.__dict__.pop(name, None)
        return copy


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
    # ... nor does one that advises or admonishes ("Instead, it is important to seek help", "consider
    # talking to a counsellor"): it redirects the asker instead of answering
    advice_words: list[str] = Field(default_factory=list)
    small_number: int = Field(10, ge=0)
    turn_within_sentence: bool = False
    # what opens the reason an impersonal decline gives ("...: she is a fictional character")
    reasons: list[str] = Field(default_factory=list)

    @field_validator("hypothetical_markers")
    @classmethod
    def _compiles(cls, v: list[str]) -> list[str]:
        return [valid_regex(p) for p in v]
