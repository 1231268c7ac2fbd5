"""What every check sees of one answer, and what a check can find in it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Protocol

from ragpipe.corpus.kinds import KINDS
from ragpipe.grading.sections import AnyRules, Attribution
from ragpipe.text.figures import find_figures
from ragpipe.text.measures import MeasureReading
from ragpipe.text.needle_kinds import MatchKind
from ragpipe.text.unasserted import Hedge, unasserted
from ragpipe.text.voice import blank, voiced

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ragpipe.corpus.questions import Question
    from ragpipe.grading.question_reading import QuestionReading
    from ragpipe.text.figures import Figure
    from ragpipe.text.stated import AnswerSays


@dataclass(frozen=True)
class Requirement:
    """One thing a correct answer carries: any one of its (needle, match kind) alternatives."""

    label: str  # where it comes from, stored as the span's kind: must_contain, mined, polarity, ...
    alternatives: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Decision:
    """The decline reading of an answer (checks/decline/decide.py), read once for every check that needs it."""

    declined: bool
    spans: list[tuple[int, int, str]]  # decline phrases found
    assertions: list[tuple[int, int]]  # sentences that assert a figure
    by_stance: bool = False  # no decline phrase: the opening's objection alone (stance.py), a reading, not a quote


NOT_DECLINED = Decision(False, [], [])


@dataclass(frozen=True)
class YesNo:
    """The yes or no an answer gives to a yes/no question (checks/polarity.py): stated ("Yes, ..."), or
    implied by restating the question; where it stands."""

    word: str  # yes | no
    start: int
    end: int
    implied: bool

    @property
    def span(self) -> tuple[str, int, int]:
        return self.word, self.start, self.end

    def requirement(self) -> Requirement:
        """The right yes/no as one more requirement of the needle count."""
        return Requirement("polarity", ((self.word, MatchKind.IMPLIED if self.implied else MatchKind.POLARITY),))


class Readings(Protocol):
    """What the checks read of an answer, read once (grading/readings/shared.py): each reading's value
    (grading/readings/), the decline reading, the yes/no it gives, whether its opening gives the key. A
    check reads them from the view, never from another check's finding or private function."""

    def decline(self, view: AnswerView) -> Decision: ...

    def yes_no(self, view: AnswerView) -> YesNo | None: ...

    def key_given(self, view: AnswerView) -> bool: ...

    def reading(self, name: str, view: AnswerView) -> Any: ...

    def question(self, question: Question) -> QuestionReading: ...


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
    noted: bool = False  # found something that decides nothing itself (the right yes/no, counted as met)
    # a ceiling, not evidence: the grade is tentative whatever its confidence (the money guard's key beside
    # another amount, neither bound to what was asked). Not weighed by the confidence model, whose evidence
    # (`firm`, read as `exact`) it leaves as fitted
    never_firm: bool = False

    @property
    def on_record(self) -> bool:
        """Whether the grade lists this check among those that found something."""
        return bool(self.verdict or self.rule or self.spans or self.noted or not self.firm or self.never_firm)


@dataclass(frozen=True)
class KeyPlace:
    """Where a money key stands in its document: the label of its line ("Amount due"), and the labels the
    same page gives its other amounts ((label, figure) pairs: "Ending balance", "$42.99"). Read when the
    needles are mined (corpus/needle_mining.py, text/labels.py)."""

    label: str
    others: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class AnswerView:
    """One answer as the checks read it, immutable: a check's result depends on the answer and on the
    findings of the checks before it (passed beside the view), never on which ran. Built once per
    answer by `grade()`; the own-voice text and the figures are read on first use (a decline decides
    before anyone needs them)."""

    question: Question
    asked: QuestionReading  # what the question asks, read once per question (grading/question_reading.py)
    whole: str  # the answer, citation markers blanked (offsets are the answer's)
    citations: list[str]
    attribution: Attribution  # how the sources' voice is marked (the section no check owns: grading/sections.py)
    readings: Readings  # what the checks read, read once (grading/readings/shared.py)
    mined: tuple[tuple[str, str, str], ...]  # (needle, kind, source) of the question's kept needles
    money_question: bool
    voice: Callable[[], tuple[str, list[tuple[int, int]]]]  # the own voice, and the spans in the sources' voice
    tolerance: Decimal
    scale: Decimal  # the unit the question declares ("in USD millions")
    key: Figure | None  # the money key as a value
    key_text: str | None = None  # the money key as written: authored (`money_key`) or the gold's one money figure
    key_place: KeyPlace | None = None  # the label the key's document gives it, and the page's other labels
    off: frozenset[str] = frozenset()  # checks and readings switched off, only to measure what each earns
    declines_read: bool = True  # False: read as if it had not declined (no decline phrase; grader.py)
    yes_no_read: bool = True  # False: a part read alone, its yes/no not looked for (`read_alone`)

    @cached_property  # a frozen dataclass allows it: the cache is the instance's __dict__, not a field
    def _own(self) -> tuple[str, list[tuple[int, int]]]:
        return self.voice()

    @property
    def decision(self) -> Decision:
        """The decline reading of the whole answer (none where the decline check is off, or where the answer
        is read as if it had not declined). Kept in the instance's dict by hand: `cached_property` takes a
        lock on every first read in this Python, once an answer for each reading."""
        found = self.__dict__.get("_decision")
        if found is None:
            read = self.declines_read and "decline" not in self.off
            found = self.__dict__["_decision"] = self.readings.decline(self) if read else NOT_DECLINED
        return found

    @property
    def yes_no(self) -> YesNo | None:
        """The yes or no the answer gives to a yes/no question (none where the polarity check is off, where
        the question is no yes/no question, or in a part read alone)."""
        if "_yes_no" in self.__dict__:
            return self.__dict__["_yes_no"]
        if not self.yes_no_read or "polarity" in self.off or self.question.polarity is None:
            found = None
        else:
            found = self.readings.yes_no(self)
        self.__dict__["_yes_no"] = found
        return found

    def as_if_not_declined(self) -> AnswerView:
        """The same answer read as if it had not declined: no decline reading, so no yes/no inside one set
        aside; what does not depend on declines (its own voice, figures, measures) is kept, not read again."""
        again = replace(self, declines_read=False)
        kept = {k: v for k, v in self.__dict__.items() if k in _DECLINE_FREE or k.startswith(_READING_KEY)}
        again.__dict__.update(kept)
        return again

    def key_given_before(self, end: int) -> bool:
        """Whether the answer's first `end` characters, read alone, meet every requirement of the key exactly."""
        return self.readings.key_given(self.read_alone(end))

    @cached_property
    def _asserted(self) -> tuple[str, list[Hedge], list[tuple[int, int]]]:
        own = self._own[0]
        if "unasserted" in self.off:  # the reading switched off: every clause asserted
            return own, [], []
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
        return replace(self, whole=part, voice=lambda: own_voice(part, self.attribution, self.off), yes_no_read=False)

    @property
    def attributed(self) -> list[tuple[int, int]]:
        """The spans of the answer spoken in the sources' voice."""
        return self._own[1]

    @cached_property
    def figures(self) -> list[Figure]:
        """The figures the answer states in its own voice."""
        return find_figures(self.text)

    def reading(self, name: str) -> Any:
        """The reading `name` of this answer (grading/readings/), read at most once."""
        key = _READING_KEY + name
        found = self.__dict__.get(key, _UNREAD)
        if found is _UNREAD:
            found = self.__dict__[key] = self.readings.reading(name, self)
        return found

    @property
    def measures(self) -> MeasureReading:
        """What each of the answer's own figures is stated as, against the measure asked (text/measures.py)."""
        return self.reading("measures")

    @property
    def slot_filler(self) -> tuple[str, int, int] | None:
        """The name the answer asserts the question's predicate of, with its span (text/slot.py)."""
        return self.reading("slot")

    @property
    def asks_why(self) -> bool:
        """Whether the question asks for a reason (text/gold_clause.py)."""
        return self.reading("reason")

    @property
    def says(self) -> AnswerSays:
        """How the answer is read to say there is none, it does not apply, it did not move (text/stated.py)."""
        return self.reading("stated")

    def other_unit(self, figure: Figure) -> str | None:
        """The unit the answer gives `figure` where the gold gives its number another unit (text/units.py)."""
        return self.reading("units")(figure)

    @cached_property
    def every_figure(self) -> list[Figure]:
        """The figures of the whole answer, the sources' voice included."""
        blanked = self.attributed or self.unasserted  # some of the whole is not in `text`
        return find_figures(self.whole) if blanked else self.figures


def own_voice(text: str, attribution: Attribution, off: frozenset[str] = frozenset()):
    """(`text` in its own voice, the spans in the sources' voice); with the `voice` reading switched off
    (grading/readings/voice.py), all of it is its own."""
    return (text, []) if "voice" in off else voiced(text, attribution)


_READING_KEY, _UNREAD = "reading:", object()  # where a view keeps each reading's value, and "not read yet"
_DECLINE_FREE = ("_own", "_asserted", "figures", "every_figure")  # cached readings no decline changes

Findings = Mapping[str, Finding]  # the findings of the checks that ran, by check id (the grader's record)

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
    `view.off` itself (the decline check, off, sees no decline: a negative question is still judged).
    `decides_declines`: the check that decides a decline (the grader reads an answer again as if it had
    not declined, without it; an ambiguous question's rules of it keep their own names). `reads`: the
    sections of other checks it reads too, declared (its run is given its own and those). `provides`:
    the readings several checks share that it makes (name -> function of the view and its rules:
    grading/readings.py), read once an answer through the view."""

    id: str
    run: Callable[[AnswerView, Any], Finding | None]  # the view, and the check's own rules (`rules_of`)
    summary: str
    order: int
    kinds: tuple[str, ...] = ANSWERED
    needs: tuple[str, ...] = ()
    sections: dict[str, type[BaseModel]] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    always_runs: bool = False
    decides_declines: bool = False  # skipped where the answer is read as if it had not declined; its rules unprefixed
    reads: tuple[str, ...] = ()  # rules sections of other checks it reads too, said here (none by default)
    provides: dict[str, Callable[[AnswerView, Any], Any]] = field(default_factory=dict)  # readings it makes

    def __post_init__(self) -> None:
        unknown = [n for n in self.needs if n not in NEEDS]
        if unknown:
            raise TypeError(f"check {self.id!r}: unknown needs {unknown}; known: {sorted(NEEDS)}")

    def applies(self, view: AnswerView) -> bool:
        return view.question.kind in self.kinds and all(NEEDS[n](view) for n in self.needs)

    def rules_of(self, rules: AnyRules) -> SimpleNamespace:
        """The check's own slice of the rules: the sections it declares, and nothing else (a check reading
        another's section fails at once, naming it)."""
        return SimpleNamespace(**{name: getattr(rules, name) for name in (*self.sections, *self.reads)})
