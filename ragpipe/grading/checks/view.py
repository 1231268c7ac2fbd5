"""What every check sees of one answer, and what a check can find in it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property
from typing import TYPE_CHECKING

from ragpipe.corpus.kinds import KINDS
from ragpipe.grading.sections import AnyRules
from ragpipe.text.figures import find_figures
from ragpipe.text.measures import MeasureReading, read_measures
from ragpipe.text.unasserted import Hedge, unasserted
from ragpipe.text.voice import blank, voiced

if TYPE_CHECKING:
    from ragpipe.corpus.questions import Question
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
    # evidence for the checks after it (the polarity check's yes/no, read by the needle count; the decline
    # phrases found, read by the polarity check)
    requirements: tuple[Requirement, ...] = ()
    stated: tuple[str, int, int] | None = None  # the yes/no the answer gives, and its span
    declines: tuple[tuple[int, int, str], ...] = ()  # (start, end, text) of every decline phrase, nested too

    @property
    def on_record(self) -> bool:
        """Whether the grade lists this check among those that found something: a finding that only
        passes evidence on (the decline phrases of an answer that did not decline) is not listed."""
        return bool(self.verdict or self.rule or self.spans or self.requirements or self.stated or not self.firm)


@dataclass(frozen=True)
class AnswerView:
    """One answer as the checks read it, immutable: a check's result depends on the answer and on the
    findings of the checks before it (passed beside the view), never on which ran. Built once per
    answer by `grade()`; the own-voice text and the figures are read on first use (a decline decides
    before anyone needs them)."""

    question: Question
    whole: str  # the answer, citation markers blanked (offsets are the answer's)
    citations: list[str]
    rules: AnyRules  # the whole rules (grading/rules.py)
    mined: tuple[tuple[str, str, str], ...]  # (needle, kind, source) of the question's kept needles
    money_question: bool
    voice: Callable[[], tuple[str, list[tuple[int, int]]]]  # the own voice, and the spans in the sources' voice
    tolerance: Decimal
    scale: Decimal  # the unit the question declares ("in USD millions")
    key: Figure | None  # the money key as a value
    off: frozenset[str] = frozenset()  # checks switched off, only to measure what each earns

    @cached_property  # a frozen dataclass allows it: the cache is the instance's __dict__, not a field
    def _own(self) -> tuple[str, list[tuple[int, int]]]:
        return self.voice()

    @cached_property
    def _asserted(self) -> tuple[str, list[Hedge], list[tuple[int, int]]]:
        own = self._own[0]
        found, spans = unasserted(own)
        return (blank(own, spans) if spans else own), found, spans

    @property
    def text(self) -> str:
        """What the answer asserts in its own voice: the sources' voice, its hedges and what it corrects
        blanked (text/voice.py, text/unasserted.py; offsets are the answer's)."""
        return self._asserted[0]

    @property
    def hedges(self) -> list[Hedge]:
        """The answer's "either ... or ..." clauses, blanked out of `text`."""
        return self._asserted[1]

    @property
    def unasserted(self) -> list[tuple[int, int]]:
        """The spans of the own voice said but not asserted: its hedges and what it corrects."""
        return self._asserted[2]

    def within(self, start: int, end: int) -> AnswerView:
        """The same answer with only `start:end` of its own voice left: one alternative of a hedge. Cut at
        `end` rather than blanked after it, so a short part of a long answer reads fast; offsets stay the
        answer's."""
        part = blank(self._own[0][:end], [(0, start)])
        return replace(self, voice=lambda: (part, []))

    def read_alone(self, end: int) -> AnswerView:
        """The answer cut at `end` and read as if it ended there, its own voice found in that part alone:
        an opening weighed by itself. Offsets stay the answer's."""
        part = self.whole[:end]
        return replace(self, whole=part, voice=lambda: voiced(part, self.rules.attribution))

    @property
    def attributed(self) -> list[tuple[int, int]]:
        """The spans of the answer spoken in the sources' voice."""
        return self._own[1]

    @cached_property
    def figures(self) -> list[Figure]:
        """The figures the answer states in its own voice."""
        return find_figures(self.text)

    @cached_property
    def measures(self) -> MeasureReading:
        """What each of the answer's own figures is stated as, against the measure asked (text/measures.py)."""
        return read_measures(self.question.text, self.text, self.figures)

    @cached_property
    def every_figure(self) -> list[Figure]:
        """The figures of the whole answer, the sources' voice included."""
        blanked = self.attributed or self.unasserted  # some of the whole is not in `text`
        return find_figures(self.whole) if blanked else self.figures


Findings = Mapping[str, Finding]  # the findings of the checks that ran before, by check id

# What a check can need of an answer and its question; a check whose needs are not met is skipped, not run.
NEEDS: dict[str, Callable[[AnswerView], bool]] = {
    "money_question": lambda v: v.money_question,  # the question asks for an amount of money
    "money_key": lambda v: v.key is not None,  # the question's authored money key
    "yes_no": lambda v: v.question.polarity is not None,  # a yes/no question, the gold's word known
    "forbidden_claims": lambda v: bool(v.question.must_not_contain),  # authored claims that are wrong
    "citations": lambda v: bool(v.citations),  # the answer cites documents
    "golden_docs": lambda v: bool(v.question.golden_docs),  # the question names its golden documents
}


ANSWERED = ("answerable", "ambiguous")  # the kinds a check of an answer's content applies to
EVERY_KIND = KINDS


class PluginRefused(TypeError):
    """A check registered under `ragpipe.checks` that cannot be used: said in one line naming its entry
    point (here, not in the registry, so a command can name it without running the discovery again)."""


@dataclass(frozen=True)
class Check:
    """One unit of the grader, declared by its module as `CHECK`: its id, its function, its place in
    the order (lower runs first; order is precedence, since the first verdict decides), the question
    kinds it applies to and what it needs of the answer (`NEEDS`: it is skipped, not run, where either
    fails), the rules.yaml sections it owns (name -> pydantic model; `Rules` is assembled from them)
    and the rule ids it can decide with. `always_runs`: switched off (ablation), it still runs and reads
    `view.off` itself (the decline check, off, sees no decline: a negative question is still judged)."""

    id: str
    run: Callable[[AnswerView, Findings], Finding | None]
    summary: str
    order: int
    kinds: tuple[str, ...] = ANSWERED
    needs: tuple[str, ...] = ()
    sections: dict[str, type] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    always_runs: bool = False

    def __post_init__(self) -> None:
        unknown = [n for n in self.needs if n not in NEEDS]
        if unknown:
            raise TypeError(f"check {self.id!r}: unknown needs {unknown}; known: {sorted(NEEDS)}")

    def applies(self, view: AnswerView) -> bool:
        return view.question.kind in self.kinds and all(NEEDS[n](view) for n in self.needs)
