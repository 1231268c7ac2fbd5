"""The grader's rules as data, and the grader version derived from them.

The grader version is a content hash of the rules file plus CODE_VERSION, so
a change to either the rules or the code that applies them is a new version,
and every grade row says which version produced it.
"""

from __future__ import annotations

import hashlib
import re
from functools import cached_property
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

CODE_VERSION = "3"
DEFAULT_RULES = Path(__file__).with_name("rules.yaml")


class RulesError(ValueError):
    """A rules file that cannot be used; nothing is graded with it."""


class Exclusion(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phrase: str
    reason: str = Field(min_length=1)


def _compile(pattern: str) -> str:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"invalid regex {pattern!r}: {exc}") from exc
    return pattern


class DeclinePattern(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pattern: str
    reason: str = Field(min_length=1)

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, v: str) -> str:
        return _compile(v)


class Declines(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phrases: list[str] = Field(min_length=1)
    patterns: list[DeclinePattern] = Field(default_factory=list)
    exclusions: list[Exclusion] = Field(default_factory=list)

    @field_validator("phrases")
    @classmethod
    def _no_blank(cls, v: list[str]) -> list[str]:
        if any(not p.strip() for p in v):
            raise ValueError("decline phrases must not be blank")
        return v


class Assertions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scope: Literal["anywhere", "before_first_decline"] = "anywhere"
    hypothetical_markers: list[str] = Field(default_factory=list)

    @field_validator("hypothetical_markers")
    @classmethod
    def _compiles(cls, v: list[str]) -> list[str]:
        return [_compile(p) for p in v]


class Attribution(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Literal["none", "before_first", "prefix_aware", "clause"] = "clause"
    markers: list[str] = Field(default_factory=list)

    @field_validator("markers")
    @classmethod
    def _compiles(cls, v: list[str]) -> list[str]:
        return [_compile(p) for p in v]


class Money(BaseModel):
    model_config = ConfigDict(extra="forbid")
    relative_tolerance: float = Field(0, ge=0, lt=1)
    question_patterns: list[str] = Field(default_factory=list)

    @field_validator("question_patterns")
    @classmethod
    def _compiles(cls, v: list[str]) -> list[str]:
        return [_compile(p) for p in v]


class Citations(BaseModel):
    model_config = ConfigDict(extra="forbid")
    require_golden_when_cited: bool = True


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    declines: Declines
    assertions: Assertions = Field(default_factory=Assertions)
    attribution: Attribution = Field(default_factory=Attribution)
    money: Money = Field(default_factory=Money)
    citations: Citations = Field(default_factory=Citations)
    version: str = ""

    @cached_property
    def excluded(self) -> set[str]:
        return {e.phrase.lower() for e in self.declines.exclusions}


def load_rules(path: Path | None = None) -> Rules:
    """Parse and validate a rules file; the version is derived from its bytes."""
    path = path or DEFAULT_RULES
    try:
        raw = path.read_bytes()
        data = yaml.safe_load(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise RulesError(f"{path}: cannot read rules: {exc}") from exc
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
    digest = hashlib.sha256(raw + b"\0code:" + CODE_VERSION.encode()).hexdigest()[:12]
    rules.version = f"g{CODE_VERSION}-{digest}"
    return rules
