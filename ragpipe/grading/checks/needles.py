"""The needle count: does the answer carry what a correct answer carries?

Requirements, each met by any one of its alternatives: the money key (by value, text/money.py),
the authored `must_contain` (each) and `must_contain_any` (one of them), and, for a question with
neither an authored needle nor a key, its kept mined needles: every kept figure and date, or, without
those, one of the kept names, quotes and phrases. Figures the gold answer computed (never printed in
the filing) are required where the question asks for a number (`needles.figure_question_patterns`);
elsewhere they are one acceptable needle among the names and phrases, and a yes/no answer that gives
its polarity needs none. Checks that ran before add theirs (the yes/no word).

All met: the answer passes this check (the citation check may still object). Some: partial; none:
wrong. With no requirement at all the question is `ungradable`, counted apart rather than silently
graded.

Firm: every requirement met by value (figures, dates, a stated yes/no) or authored, as written.
Tentative: met by mined words, which an answer may carry without asserting them; by a word derived from
an authored key ("Colombian" for "Colombia"), a reading of it; by a yes/no while the gold answer's
figures went unchecked (the answer's own figures may contradict them); or missing, which the answer may
have said in another form.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Protocol, cast

from pydantic import BaseModel, ConfigDict, Field

from ragpipe.grading import outcomes
from ragpipe.grading.checks.view import AnswerView, Check, Finding, Requirement
from ragpipe.grading.grade import Verdict
from ragpipe.text.forms import find_form, leaves_words_out
from ragpipe.text.gold_clause import only_in_modifiers
from ragpipe.text.lists import names_listed
from ragpipe.text.matching import computed_reading, figure_needle, find_computed_figure, find_needle
from ragpipe.text.measures import other_values
from ragpipe.text.money import matches_key
from ragpipe.text.needle_kinds import (
    COMPUTED,
    EXACT_MATCHES,
    FIGURE_KINDS,
    MatchKind,
    NeedleKind,
    figure_kind,
    match_kind,
)
from ragpipe.text.patterns import DeclinePattern
from ragpipe.text.stated import SAID_KINDS

MONEY_KEY = "money_key"


class Needles(BaseModel):
    """rules.yaml `needles`."""

    model_config = ConfigDict(extra="forbid")
    figure_question_patterns: list[DeclinePattern] = Field(default_factory=list)
    # defaults are what rules files without these fields meant: computed figures matched as printed ones
    computed_last_place: int = Field(0, ge=0, le=2)
    computed_ratio_as_percent: bool = False


def _authored(view: AnswerView, rules: NeedleRules) -> list[Requirement]:
    # an authored figure that mining found nowhere in the filing was computed for the gold answer
    made = {n for n, k, src in view.mined if k in FIGURE_KINDS and src == COMPUTED}
    reqs = [
        Requirement("must_contain", ((n, MatchKind.COMPUTED_FIGURE if n in made else MatchKind.FORM),))
        for n in view.question.must_contain
    ]
    if view.question.must_contain_any:
        reqs.append(Requirement("must_contain_any", tuple((n, MatchKind.FORM) for n in view.question.must_contain_any)))
    return reqs


def _mined(view: AnswerView, rules: NeedleRules, stated) -> tuple[list[Requirement], list[tuple[str, str]]]:
    """Every kept figure; the kept names, quotes and phrases (one of them) only when there is no figure,
    since they are weaker evidence than figures. Also: the gold answer's computed figures left out (a
    yes/no answer that gives its polarity needs none, but then its own figures go unchecked)."""
    mined, question = view.mined, view.question
    computed: list[tuple[str, str]] = [
        (n, MatchKind.COMPUTED_FIGURE) for n, k, src in mined if k in FIGURE_KINDS and src == COMPUTED
    ]
    unchecked: list[tuple[str, str]] = []
    if question.polarity and stated:
        computed, unchecked = [], computed
    required = view.asked.figure_wanted  # rules.needles.figure_question_patterns, read with the question
    reqs = [
        Requirement("mined", ((n, MatchKind.MINED_FIGURE),))
        for n, k, src in mined
        if k in FIGURE_KINDS and src != COMPUTED
    ]
    reqs += [Requirement("mined", ((n, MatchKind.DATE),)) for n, k, _ in mined if k == NeedleKind.DATE]
    reqs += [Requirement("mined", (c,)) for c in computed] if required else []
    terms = [(n, match_kind(k)) for n, k, _ in mined if k not in FIGURE_KINDS and k != NeedleKind.DATE]
    # the option a choice question's gold picks is what was asked, beside any figure it also gives
    options = [(n, k) for n, k in terms if k == MatchKind.LEAD_TERM]
    if reqs and options:
        reqs += [Requirement("option", (o,)) for o in options]
    items = names_listed(question.gold_answer) if view.asked.several else []
    if len(items) > 1 and not reqs:  # a list asked for whole: every item, in any order
        return [Requirement("list_item", ((item, MatchKind.PHRASE),)) for item in items], unchecked
    alternatives = terms + ([] if required else computed)
    if alternatives and not reqs:
        reqs.append(Requirement("mined_any", tuple(alternatives)))
    return reqs, unchecked


def _find(
    needle: str, kind: str, view: AnswerView, n: Needles, stated=None, derived: bool = False
) -> tuple[int, int] | None:
    """The span of `needle` in what the answer asserts (hedges and what it corrects left out:
    text/unasserted.py), matched as its `kind` says; a figure the gold answer computed is found with
    the slack its calculation allows (see same_computed_figure). `derived`: a key's form is also met by
    a word derived from it (text/forms.py)."""
    if kind == MatchKind.IMPLIED:
        return stated[1:]
    if kind == MatchKind.FORM:
        return find_form(needle, view.text, view.figures, view.tolerance, view.question.text, derived=derived)
    if kind in SAID_KINDS and figure_needle(needle) is None:  # a none, said in the answer's words (text/stated.py)
        return view.says.found(cast(MatchKind, kind), view.text)
    gold = figure_needle(needle) if kind == MatchKind.COMPUTED_FIGURE else None
    if gold is None:
        return find_needle(needle, view.text, view.figures, view.tolerance, cast(MatchKind, kind))
    return find_computed_figure(gold, view.figures, n.computed_last_place, n.computed_ratio_as_percent)


def _meet(req: Requirement, view: AnswerView, n: Needles, stated=None) -> tuple[str, str, tuple[int, int]] | None:
    """The first of `req`'s alternatives the answer asserts, with its span. A hedge ("either A or B")
    meets it only where each of its alternatives does: then the answer is right whichever it is. Only
    when nothing is met so, an authored one-word key is met by a word derived from it ("Colombian" for
    "Colombia", text/forms.py)."""
    met = _met_as_written(req, view, n, stated)
    if met:
        return met
    for needle, kind in req.alternatives:
        span = _find(needle, kind, view, n, derived=True) if kind == MatchKind.FORM else None
        if span:
            return needle, MatchKind.DERIVED_FORM, span
    return None


def _met_as_written(
    req: Requirement, view: AnswerView, n: Needles, stated=None
) -> tuple[str, str, tuple[int, int]] | None:
    """The first alternative met as the key writes it, or a hedge each of whose alternatives meets `req`."""
    for needle, kind in req.alternatives:
        span = _find(needle, kind, view, n, stated)
        if span:
            return needle, kind, span
    for hedge in view.hedges:
        met = [_meet(req, view.within(s, e), n) for s, e in hedge.alternatives]
        if all(met):
            return met[0]
    return None


def _key_span(view: AnswerView) -> tuple[int, int] | None:
    """The first key figure the answer neither states as another measure nor denies or withdraws
    (text/measures.py): "The amount due is not $150" does not state the key $150."""
    hit = next(
        (
            f
            for f in view.figures
            if view.key is not None
            and matches_key(view.key, f, view.scale, view.tolerance)
            and view.measures.other(f) is None
            and not view.measures.retracted(f)
        ),
        None,
    )
    return None if hit is None else (hit.start, hit.end)


_BY_VALUE = frozenset({MatchKind.MINED_FIGURE, MatchKind.COMPUTED_FIGURE})


@lru_cache(maxsize=8192)  # a question's needles are met by many answers
def _is_figure(needle: str, kind: str) -> bool:
    """A needle met by a figure: matched by value, or a figure alone."""
    return kind in _BY_VALUE or figure_needle(needle) is not None


@lru_cache(maxsize=8192)
def _asks_a_figure(req: Requirement) -> bool:
    """The requirement is met by a figure (one of its alternatives is)."""
    return any(_is_figure(n, k) for n, k in req.alternatives)


def _figure_at(view: AnswerView, start: int):
    """The answer's own figure that starts at `start`, if one does."""
    return next((f for f in view.figures if f.start == start), None)


def _stated_otherwise(view: AnswerView, kind: str, span: tuple[int, int]) -> bool:
    """A needle met by a figure the answer states as a measure the question did not ask, or in another unit
    of the quantity than the gold gives it ("842 MWh" for "842 kWh": text/units.py)."""
    if kind not in _BY_VALUE and kind != MatchKind.FORM:
        return False
    figure = _figure_at(view, span[0])
    if figure is not None and view.other_unit(figure) is not None:
        return True
    if not view.measures.qualified:
        return False  # no qualifier asked: no figure can be stated as another measure
    return figure is not None and view.measures.other(figure) is not None


def _other_value(view: AnswerView, n: Needles, reqs: list[Requirement], spans: list[dict]) -> list:
    """The figures the answer states the asked measure as, none of which would meet a figure needle on its
    own (read as the needle count reads it, its slack included): a wrong value asserted for what was
    asked (text/measures.py: other_values)."""
    if not view.measures.stating_asked:  # most answers: nothing states the asked measure at all
        return []
    met = [(s["start"], s["end"]) for s in spans]
    figure_alternatives = [(n, k) for r in reqs for n, k in r.alternatives if _is_figure(n, k)]

    values = [f for f in view.figures if any(a <= f.start < b for a, b in met)]
    golds = [g for g in (figure_needle(n) for n, _ in figure_alternatives) if g is not None]
    kinds = {figure_kind(g) for g in golds} | ({figure_kind(view.key)} if view.key is not None else set())

    def is_met(f) -> bool:  # a needle met there, the same value as one met, the key, or a needle met alone
        if any(a <= f.start < b for a, b in met) or any(m.matches(f, view.tolerance) for m in values):
            return True
        if view.key is not None and matches_key(view.key, f, view.scale, view.tolerance):
            return True
        alone = view.within(f.start, f.end)
        return any(_find(needle, k, alone, n) for needle, k in figure_alternatives)

    # only a figure of the gold's kind can be another value of it: an age is no other year, a count no sum
    return [
        b for b in other_values(view.measures, view.text, view.question.text, is_met) if figure_kind(b.figure) in kinds
    ]


def _only_where_or_when(view: AnswerView, n: Needles, reqs: list[Requirement]) -> bool:
    """A why-question whose gold clause the answer meets only by words of its place or time phrases
    ("European" of "on its European routes", text/gold_clause.py), while the gold's reason has needles of
    its own that the answer does not meet: it shares where, not why."""
    gold = view.question.gold_answer
    if not gold or not view.asks_why:
        return False
    alternatives = [a for r in reqs if r.label == "mined_any" for a in r.alternatives]
    core = [(n, k) for n, k in alternatives if not only_in_modifiers(gold, n)]
    if not core or len(core) == len(alternatives):
        return False
    return not any(_find(needle, k, view, n) for needle, k in core)


def _fills(filler: str, reqs: list[Requirement]) -> bool:
    """Whether the name filling the question's slot is the gold's (a word in common with a needle of
    words), or the question asks for no name (every needle a figure): then nothing here contradicts."""
    words = [n for r in reqs for n, k in r.alternatives if not _is_figure(n, k)]
    if not words:
        return True
    said = {w.lower() for w in re.findall(r"\w+", filler)}
    return any(said & {w.lower() for w in re.findall(r"\w+", n)} for n in words)


IN_QUESTION = "in_question"  # an authored form the question itself holds: echoing the question meets it
WORDS_LEFT_OUT = "words_left_out"  # an authored form met without its aside, relative clause or maker


def _reading(view: AnswerView, n: Needles, needle: str, kind: str, span: tuple[int, int]) -> str:
    """The lenient reading a met needle needed ("" for none): the computed figure's slack or a ratio read as
    a percent (text/matching.py: computed_reading), or an authored form that the question itself holds. A
    lenient reading may decide a verdict, never a firm one."""
    if kind == MatchKind.COMPUTED_FIGURE:
        gold, figure = figure_needle(needle), _figure_at(view, span[0])
        if gold is None or figure is None:
            return ""
        return computed_reading(gold, figure, n.computed_last_place, n.computed_ratio_as_percent) or ""
    if kind in (MatchKind.FORM, MatchKind.DERIVED_FORM) and _holds_phrase(view.question.text, needle):
        return IN_QUESTION
    if kind == MatchKind.FORM and leaves_words_out(needle, view.text, view.figures, view.tolerance, view.question.text):
        return WORDS_LEFT_OUT
    return ""


@lru_cache(maxsize=4096)
def _holds_phrase(text: str, phrase: str) -> bool:
    return (
        bool(phrase.strip())
        and re.search(rf"(?<!\w){re.escape(phrase.strip())}(?!\w)", text, re.IGNORECASE) is not None
    )


class NeedleRules(Protocol):
    needles: Needles


def run(view: AnswerView, rules: NeedleRules) -> Finding | None:
    yes = view.yes_no  # the right yes/no, where the polarity check found one (it decided the wrong one)
    stated = yes.span if yes else None
    reqs = _authored(view, rules)
    source, unchecked = "authored", cast(list[tuple[str, str]], [])
    if not reqs and view.key is None:
        source = "mined"
        reqs, unchecked = _mined(view, rules, stated)
    if yes is not None:
        reqs.append(yes.requirement())
    if not reqs and view.key is None:
        # not silently graded: no verdict but "ungradable", counted apart in the scorecard
        reason = outcomes.UNGRADABLE_NO_YES_NO if view.question.polarity else outcomes.UNGRADABLE_NO_NEEDLES
        return Finding("needles", Verdict.UNGRADABLE, reason, outcomes.NEEDLES_UNGRADABLE, firm=False, ungradable=True)

    spans: list[dict] = []
    missing: list[Requirement] = []
    # firm: every requirement met by value or authored, and the gold's figures not left unchecked
    n = rules.needles
    exact = not unchecked or any(_find(needle, k, view, n, stated) for needle, k in unchecked)
    if view.key is not None:
        span = _key_span(view)
        if span:
            spans.append({"kind": MONEY_KEY, "needle": view.key_text, "start": span[0], "end": span[1]})
        else:
            missing.append(Requirement(MONEY_KEY, ((view.key_text or "", MatchKind.MINED_FIGURE),)))
    figures_asked = False
    for req in reqs:
        met = _meet(req, view, n, stated)
        figures_asked = figures_asked or _asks_a_figure(req)
        if met is None or _stated_otherwise(view, met[1], met[2]):
            missing.append(req)
            continue
        needle, kind, span = met
        reading = _reading(view, n, needle, kind, span)
        spans.append(
            {"kind": req.label, "needle": needle, "start": span[0], "end": span[1]}
            | ({"reading": reading} if reading else {})
        )
        as_authored = source == "authored" and req.label != "polarity" and kind != MatchKind.DERIVED_FORM
        chose = req.label == "option"  # a choice stated in the opening, as a yes or no is
        exact &= (kind in EXACT_MATCHES or as_authored or chose) and not reading

    filler = None if missing else view.slot_filler
    if filler is not None and not _fills(filler[0], reqs):
        asserted = {"kind": "slot", "needle": f"asserted: {filler[0]}", "start": filler[1], "end": filler[2]}
        return Finding(
            "needles", Verdict.WRONG, outcomes.OTHER_VALUE, outcomes.NEEDLES_SLOT_OTHER, (*spans, asserted), firm=False
        )
    if not missing and source == "mined" and _only_where_or_when(view, n, reqs):
        return Finding(
            "needles",
            Verdict.PARTIAL,
            outcomes.MISSING_NEEDLES,
            outcomes.NEEDLES_MODIFIER_ONLY,
            tuple(spans),
            firm=False,
        )
    other = _other_value(view, n, reqs, spans) if figures_asked or view.key is not None else []
    if other:
        wrong = tuple({"kind": "asked_as", "needle": f"{b.phrase} stated as {b.figure.text}",
                       "start": b.figure.start, "end": b.figure.end} for b in other)  # fmt: skip
        return Finding(
            "needles",
            Verdict.WRONG,
            outcomes.OTHER_VALUE,
            outcomes.NEEDLES_OTHER_VALUE,
            tuple(spans) + wrong,
            firm=False,
        )

    total = len(reqs) + (view.key is not None)
    if missing:
        passed = total - len(missing)
        return Finding(
            "needles",
            Verdict.PARTIAL if passed else Verdict.WRONG,
            outcomes.MISSING_NEEDLES,
            outcomes.needles_rule(source, "some" if passed else "none"),
            tuple(spans),
            firm=False,  # an absence: the answer may say it in words or a form no reader here knows
        )
    return Finding("needles", None, None, outcomes.needles_rule(source, "all"), tuple(spans), firm=exact)


def key_given(view: AnswerView, rules: NeedleRules) -> bool:
    """Every requirement met, firmly: the count's verdict on an opening read alone (the decline check asks
    it, through `view.key_given_before`)."""
    met = run(view, rules)
    return met is not None and met.verdict is None and met.firm


CHECK = Check(
    "needles",
    run,
    "the key, the authored needles or the mined ones, counted",
    order=50,
    sections={"needles": Needles},
    provides={"key_given": key_given},
    rules=(
        outcomes.NEEDLES_UNGRADABLE,
        outcomes.NEEDLES_OTHER_VALUE,
        outcomes.NEEDLES_MODIFIER_ONLY,
        outcomes.NEEDLES_SLOT_OTHER,
        *(outcomes.needles_rule(s, f) for s in ("authored", "mined") for f in ("all", "some", "none")),
    ),
)
