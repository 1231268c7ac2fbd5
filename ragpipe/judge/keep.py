"""Verdicts a judge may not overturn: chosen by question kind and by the rule that decided, from numbers.

A judge asked about every tentative verdict can hurt where the rules read better than it does: on
XSTest's ambiguous questions GPT-4's recorded verdicts lower refusal F1 from 0.943 (the rules alone) to
0.831. A judge's entry may list what it keeps (`keep:` in corpora/configs.yaml); a kept verdict is
not asked about, and a stored judgment on it is not applied. `ragpipe agreement --judgments` (or
`--judge`) reports, per kind and deciding rule, where the judge moved agreement with people up and
where down, so the list is made from numbers, and `--keep` tries one before it is configured.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, model_validator

from ragpipe.corpus.kinds import QuestionKind
from ragpipe.grading import outcomes
from ragpipe.grading.checks import registry


class KeepRule(BaseModel):
    """Rule verdicts the judge leaves standing: of questions of `kind`, decided by `rule` (an id, or a prefix
    ending in `*`: `negative.*`); one of the two may be left out (any)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: QuestionKind | None = None
    rule: str | None = None

    @model_validator(mode="after")
    def _says_something(self) -> KeepRule:
        if self.kind is None and not self.rule:
            raise ValueError("a keep rule names a kind, a rule, or both")
        return self

    def holds(self, kind: str | None, rule: str | None) -> bool:
        if self.kind is not None and kind != self.kind.value:
            return False
        if not self.rule:
            return True
        if self.rule.endswith("*"):
            return (rule or "").startswith(self.rule[:-1])
        return rule == self.rule

    def written(self) -> str:
        """`kind:rule`, as `--keep` takes it."""
        return f"{self.kind.value if self.kind else ''}:{self.rule or ''}"


def naming_rules(keep: list[KeepRule]) -> list[KeepRule]:
    """`keep` as written by someone (a configuration, `--keep`), each rule one a grade can carry."""
    for k in keep:
        if k.rule:
            _names_a_rule(k.rule)
    return keep


def _names_a_rule(rule: str) -> None:
    """A rule no grade can carry would be kept and never match: refused, as is `*` (every verdict kept,
    so the judge is never asked: leave the judge out instead). A plug-in check's own ids are its to name."""
    prefix = rule[:-1] if rule.endswith("*") else None
    if prefix is not None and not prefix.strip("."):
        raise ValueError(f"keep rule {rule!r} keeps every verdict, so the judge is never asked: configure no judge")
    known = outcomes.rule_ids()
    plugged = tuple(f"{check.id}." for check in registry.plugged_in())
    bare = rule.removeprefix(outcomes.AMBIGUOUS_PREFIX)
    if bare.startswith(plugged) or (rule in known if prefix is None else any(k.startswith(prefix) for k in known)):
        return
    families = sorted({k.split(".")[0] + ".*" for k in known})
    raise ValueError(f"keep rule {rule!r} names no rule a grade can carry (rules: {', '.join(families)})")


def parse_keep(text: str) -> KeepRule:
    """`ambiguous:ambiguous.declined`, `:needles.mined.*`, `negative:` (what `--keep` takes)."""
    kind, sep, rule = text.partition(":")
    if not sep:
        raise ValueError(f"--keep takes KIND:RULE (either may be empty), not {text!r}")
    return naming_rules([KeepRule(kind=kind or None, rule=rule or None)])[0]


def kept(keep: Iterable[KeepRule], kind: str | None, rule: str | None) -> bool:
    return any(k.holds(kind, rule) for k in keep)


def keep_id(keep: Iterable[KeepRule]) -> str:
    """`k-` and a hash of the rules (in any order), for the grader version: another list, another ruler."""
    body = json.dumps(sorted(k.written() for k in keep))
    return "k-" + hashlib.sha256(body.encode()).hexdigest()[:12]
