"""The grader's rules as data, with the grader version they and the code give.

Each check declares its own slice (grading/checks/: `money`, `needles`,
`polarity`, `citations`); the decline and voice sections, read by
declines.py and voice.py, are declared here.

The grader version is computed (grading/version.py) from the rules file's
bytes and the source of every module that decides a verdict, so a change to
either is a new version, and every grade row says which version produced it.
A phrase that contains or overlaps an exclusion is refused: the exclusion
exists because that wording is real answers' vocabulary.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ragpipe.grading.checks.citations import Citations
from ragpipe.grading.checks.money_key import Money
from ragpipe.grading.checks.needles import Needles
from ragpipe.grading.checks.polarity import Polarity
from ragpipe.grading.patterns import DeclinePattern, valid_regex
from ragpipe.grading.version import grader_fingerprint
from ragpipe.inputs.text import valid_json

DEFAULT_RULES = Path(__file__).with_name("rules.yaml")


class RulesError(ValueError):
    """A rules file that cannot be used; nothing is graded with it."""


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


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    declines: Declines
    assertions: Assertions = Field(default_factory=Assertions)
    attribution: Attribution = Field(default_factory=Attribution)
    money: Money = Field(default_factory=Money)
    citations: Citations = Field(default_factory=Citations)
    needles: Needles = Field(default_factory=Needles)
    polarity: Polarity = Field(default_factory=Polarity)
    answers: Answers = Field(default_factory=Answers)
    version: str = ""
    rules_text: str = ""  # the file the version was computed from, stored with the version
    code_sha: str = ""

    @cached_property
    def excluded(self) -> set[str]:
        return {e.phrase.lower() for e in self.declines.exclusions}

    @cached_property
    def decline_key(self) -> tuple:
        """Everything the decline matcher is built from, hashable: the key of its compiled form."""
        g = self.declines.grammar
        return (
            tuple(p for p in self.declines.phrases if p.lower() not in self.excluded),
            tuple(p.pattern for p in self.declines.patterns),
            tuple(p.pattern for p in self.declines.openings),
            (
                tuple(g.sources),
                tuple(g.telling_verbs),
                tuple(g.covering_verbs),
                tuple(g.participles),
                tuple(g.inabilities),
                tuple(g.unwilling),
            ),
        )

    def model_copy(self, *, update=None, deep: bool = False) -> Rules:
        """A copy whose derived values (cached from the old fields) are computed afresh."""
        copy = super().model_copy(update=update, deep=deep)
        for name in ("excluded", "decline_key"):
            copy.__dict__.pop(name, None)
        return copy


def load_rules(path: Path | None = None) -> Rules:
    """Parse and validate a rules file; the version is derived from its bytes and the grading code."""
    path = path or DEFAULT_RULES
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RulesError(f"{path}: cannot read rules: {exc}") from exc
    return parse_rules(raw, str(path))


def parse_rules(raw: bytes, path: str) -> Rules:
    """Rules from a rules file's bytes (`path` names where they came from, in errors)."""
    try:
        data = valid_json(yaml.safe_load(raw.decode("utf-8")))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        said = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise RulesError(f"{path}: {where}cannot read rules: invalid YAML: {said}") from exc
    except UnicodeDecodeError as exc:
        raise RulesError(f"{path}: cannot read rules: not UTF-8 text (byte {exc.start})") from exc
    if not isinstance(data, dict):
        raise RulesError(f"{path}: expected a mapping at the top level")
    try:
        rules = Rules.model_validate(data)
    except ValidationError as err:
        fields = "; ".join(f"field {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors())
        raise RulesError(f"{path}: {fields}") from err
    overlap = rules.excluded & {p.lower() for p in rules.declines.phrases}
    if overlap:
        raise RulesError(f"{path}: field declines: {sorted(overlap)} both a phrase and an exclusion")
    clashes = exclusion_clashes(rules.declines.phrases, [e.phrase for e in rules.declines.exclusions])
    if clashes:
        listed = "; ".join(f"{p!r} {how} exclusion {e!r}" for p, how, e in clashes)
        raise RulesError(f"{path}: field declines.phrases: {listed}")
    fingerprint = grader_fingerprint(raw)
    rules.version, rules.rules_text, rules.code_sha = fingerprint.version, raw.decode("utf-8"), fingerprint.code_sha
    return rules


def _words(text: str) -> list[str]:
    return re.findall(r"\w+(?:'\w+)?", text.lower().replace("\u2019", "'"))


def exclusion_clashes(phrases: list[str], exclusions: list[str]) -> list[tuple[str, str, str]]:
    """(phrase, how, exclusion) for each phrase that contains, lies inside, or overlaps an exclusion
    word for word ("is not covered, not" contains "not covered"; "covered, not" overlaps it).
    Such a phrase would match text that the exclusion says is an answer, not a refusal."""
    out = []
    for phrase in phrases:
        p = _words(phrase)
        for exclusion in exclusions:
            e = _words(exclusion)
            if not p or not e or p == e:
                continue  # the same phrase is reported as "both a phrase and an exclusion"
            joined_p, joined_e = f" {' '.join(p)} ", f" {' '.join(e)} "
            if joined_e in joined_p:
                out.append((phrase, "contains", exclusion))
            elif joined_p in joined_e:
                out.append((phrase, "lies inside", exclusion))
            elif any(p[:k] == e[-k:] or e[:k] == p[-k:] for k in range(1, min(len(p), len(e)))):
                out.append((phrase, "overlaps", exclusion))
    return out
