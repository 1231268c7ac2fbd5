"""The grader's rules as data, with the grader version they and the code give.

Each check declares its own slice (`Check.sections` in grading/checks/), and
`Rules` is assembled from them and the sections no check owns
(grading/sections.py): a new check brings its slice with it.

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

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from ragpipe.grading.checks.registry import CHECKS
from ragpipe.grading.sections import Answers, Assertions, Attribution, Declines
from ragpipe.grading.version import grader_fingerprint
from ragpipe.inputs.text import valid_json

DEFAULT_RULES = Path(__file__).with_name("rules.yaml")


class RulesError(ValueError):
    """A rules file that cannot be used; nothing is graded with it."""


class _Rules(BaseModel):
    """The sections no check owns, and what the version was computed from; `Rules` adds each check's slice."""

    model_config = ConfigDict(extra="forbid")
    declines: Declines
    assertions: Assertions = Field(default_factory=Assertions)
    attribution: Attribution = Field(default_factory=Attribution)
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


def _slices() -> dict:
    """Each check's rules.yaml sections, as fields with their defaults (a check's slice is optional)."""
    fields = {}
    for check in CHECKS:
        for name, model in check.sections.items():
            if name in _Rules.model_fields or (name in fields and fields[name][0] is not model):
                raise TypeError(f"check {check.id!r}: rules section {name!r} is declared twice")
            fields[name] = (model, Field(default_factory=model))
    return fields


Rules = create_model("Rules", __base__=_Rules, __doc__="The grader's rules: rules.yaml, validated.", **_slices())
Rules.__module__ = __name__


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
