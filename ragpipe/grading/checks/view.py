"""What every check sees of one answer, and what a check can find in it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import TYPE_CHECKING

from ragpipe.grading.sections import AnyRules

if TYPE_CHECKING:
    from ragpipe.corpus.questions import Question
    from ragpipe.grading.declines import Decision
    from ragpipe.text.figures import Figure


@dataclass(frozen=True)
class Requirement:
    """One thing a correct answer carries: any one of its (needle, match kind) alternatives."""

    label: str  # where it comes from, stored as the span's kind: must_contain, mined, polarity, ...
    alternatives: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Finding:
    """What one check found. With a verdict it decides the grade; without one it is evidence on record.

    `firm`: the finding rests on exact evidence (a recognised decline, a figure compared by value, a
    stated yes or no, an authored needle); tentative ones rest on words an answer may paraphrase or on
    their absence, and are where a person's label is worth most."""

    check: str
    verdict: str | None = None
    failure: str | None = None
    rule: str | None = None
    spans: tuple[dict, ...] = ()
    firm: bool = True
    declined: bool = False
    wrong_money: tuple[str, ...] = ()
    ungradable: bool = False
    # evidence for the checks after it (the polarity check's yes/no, read by the needle count)
    requirements: tuple[Requirement, ...] = ()
    stated: tuple[str, int, int] | None = None  # the yes/no the answer gives, and its span


@dataclass(frozen=True)
class AnswerView:
    """One answer as the checks read it, immutable: a check's result depends on the answer and on the
    findings of the checks before it (passed beside the view), never on which ran. Built once per
    answer by `grade()`; the own-voice text and its figures are read on first use (a decline decides
    before anyone needs them)."""

    question: Question
    whole: str  # the answer, citation markers blanked (offsets are the answer's)
    citations: list[str]
    rules: AnyRules  # the whole rules (grading/rules.py)
    mined: tuple[tuple[str, str, str], ...]  # (needle, kind, source) of the question's kept needles
    money_question: bool
    decision: Decision  # declines.decide over the whole answer
    voice: Callable[[], tuple[str, list[Figure]]]  # the answer's own voice and its figures
    tolerance: Decimal
    scale: Decimal  # the unit the question declares ("in USD millions")
    key: Figure | None  # the money key as a value

    @cached_property  # a frozen dataclass allows it: the cache is the instance's __dict__, not a field
    def _own(self) -> tuple[str, list[Figure]]:
        return self.voice()

    @property
    def text(self) -> str:
        return self._own[0]

    @property
    def figures(self) -> list[Figure]:
        return self._own[1]


Findings = Mapping[str, Finding]  # the findings of the checks that ran before, by check id


ANSWERED = ("answerable", "ambiguous")  # the kinds a check of an answer's content applies to
EVERY_KIND = ("answerable", "negative", "ambiguous")


@dataclass(frozen=True)
class Check:
    """One unit of the grader, declared by its module as `CHECK`: its id, its function, its place in
    the order (lower runs first; order is precedence, since the first verdict decides), the question
    kinds it applies to (it is skipped, not run, on the others), the rules.yaml sections it owns (name
    -> pydantic model; `Rules` is assembled from them) and the rule ids it can decide with."""

    id: str
    run: Callable[[AnswerView, Findings], Finding | None]
    summary: str
    order: int
    kinds: tuple[str, ...] = ANSWERED
    sections: dict[str, type] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
