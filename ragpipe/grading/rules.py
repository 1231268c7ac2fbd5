"""The grader's rules as data, with the grader version they and the code give.

Each check and each reading declares its own slice (`sections` in grading/checks/ and
grading/readings/), and `Rules` is assembled from them and the sections no check owns
(grading/sections.py): a new check or reading brings its slice with it.

The grader version is computed (grading/version.py) from the rules file's
bytes and the source of every module that decides a verdict, so a change to
either is a new version, and every grade row says which version produced it.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from ragpipe.grading.checks.registry import CHECKS, plugin_sources
from ragpipe.grading.readings.registry import READINGS
from ragpipe.grading.sections import Answers, Attribution, Trust
from ragpipe.grading.version import grader_fingerprint
from ragpipe.inputs.text import valid_json
from ragpipe.inputs.yaml_text import load_yaml

DEFAULT_RULES = Path(__file__).with_name("rules.yaml")


class RulesError(ValueError):
    """A rules file that cannot be used; nothing is graded with it."""


class _Rules(BaseModel):
    """The sections no check owns, and what the version was computed from; `Rules` adds each check's slice."""

    model_config = ConfigDict(extra="forbid")
    attribution: Attribution = Field(default_factory=Attribution)
    answers: Answers = Field(default_factory=Answers)
    trust: Trust = Field(default_factory=Trust)
    version: str = ""
    rules_text: str = ""  # the file the version was computed from, stored with the version
    code_sha: str = ""


def _slices() -> dict:
    """Each check's and each reading's rules.yaml sections, as fields: with their defaults where the model
    has them (the slice is optional then), required where it has none (the decline check's phrases)."""
    fields: dict[str, Any] = {}
    units: list[tuple[str, str, dict]] = [("check", c.id, c.sections) for c in CHECKS]
    units += [("reading", r.id, r.sections) for r in READINGS]
    for what, unit, sections in units:
        for name, model in sections.items():
            if name in _Rules.model_fields or (name in fields and fields[name][0] is not model):
                raise TypeError(f"{what} {unit!r}: rules section {name!r} is declared twice")
            required = any(f.is_required() for f in model.model_fields.values())
            fields[name] = (model, ...) if required else (model, Field(default_factory=model))
    return fields


if TYPE_CHECKING:  # each check's slice is a field made at import (`_slices`): typed as what the model holds

    class Rules(_Rules):
        def __getattr__(self, name: str) -> Any: ...

else:
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
    """Rules from a rules file's bytes (`path` names where they came from, in errors). The same bytes give
    the same rules object, parsed once per process: every stage of a regrade reads the rules for each pair
    (7 ms a time); nothing changes a Rules once made (a judged copy is a copy: judge/config.py)."""
    return _parsed(raw, path)


@lru_cache(maxsize=8)
def _parsed(raw: bytes, path: str) -> Rules:
    try:
        data = valid_json(load_yaml(raw.decode("utf-8")))
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
    fingerprint = grader_fingerprint(raw, plugins=plugin_sources())
    rules.version, rules.rules_text, rules.code_sha = fingerprint.version, raw.decode("utf-8"), fingerprint.code_sha
    return rules
