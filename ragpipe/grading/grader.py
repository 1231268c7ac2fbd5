"""Grade one answer against one question: a verdict, a decline flag, a failure
label, the rule that decided, and the spans that matched.

Verdicts:
- answerable: `correct` when the answer carries every `must_contain`, one of
  `must_contain_any`, none of `must_not_contain` and the money key by value,
  and cites a golden document when it cites anything; `partial` when only
  some of that holds; `wrong` otherwise (a decline is `wrong` with the label
  `declined an answerable question`).
- negative: `correct` iff declined. ambiguous: `correct` when declined or
  when correct as an answerable question.
- money guard: on a money question, any money figure in the answer that is
  not the key (by value, at the key's precision) makes it `wrong` with
  `wrong money figure`, whatever else the answer says.
- a question with no authored needle and no money key is graded on its kept
  mined needles (all kept figures, or, without figures, one of the kept
  names, quotes or phrases); with none of those either its verdict is
  `ungradable`, counted apart rather than silently graded.
- a yes/no question (authored `polarity`) is `wrong` when the answer opens
  with the opposite word, or implies it by restating the question (see
  polarity.py); the matching word is one more check.
- figures and needles count only in the answer's own voice (see voice.py);
  declines are decided on the whole answer (see declines.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import lru_cache

from ragpipe.corpus.needles import COMPUTED, FIGURE_KINDS, STATED_KINDS
from ragpipe.corpus.questions import Question
from ragpipe.grading import outcomes
from ragpipe.grading.declines import decide, outermost
from ragpipe.grading.polarity import implied_polarity, stated_polarity
from ragpipe.grading.rules import Rules
from ragpipe.grading.voice import own_voice
from ragpipe.text.calculation import concludes_calculation
from ragpipe.text.figures import Figure, find_figures, parse_figure, question_scale
from ragpipe.text.matching import figure_needle, find_computed_figure, find_needle


@dataclass
class Grade:
    verdict: str
    declined: bool
    failure: str | None
    rule: str
    money_question: bool
    wrong_money: list[str] = field(default_factory=list)
    matched: list[dict] = field(default_factory=list)
    ungradable: bool = False
    truncated: bool = False  # graded on its first rules.answers.max_chars characters


@lru_cache(maxsize=8)
def _marker(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def blank_citations(answer: str, rules: Rules) -> str:
    """Citation markers like [1] (`citations.marker_pattern`) replaced by spaces: offsets stay valid,
    "[1]" is no figure."""
    return _marker(rules.citations.marker_pattern).sub(lambda m: " " * len(m.group(0)), answer)


def is_money_question(question: Question, rules: Rules) -> bool:
    return _money_question(
        question.text, question.kind, question.money_key, question.gold_answer, tuple(rules.money.question_patterns)
    )


@lru_cache(maxsize=4096)  # a question is asked of many answers
def _money_question(text: str, kind: str, key: str | None, gold: str, patterns: tuple[str, ...]) -> bool:
    if key is not None:
        return parse_figure(key).is_money
    text = text.lower()
    return (
        any(re.search(p, text) for p in patterns) and kind != "negative" and any(f.is_money for f in find_figures(gold))
    )


# How mined text needles are matched. Terms by stem; the option a choice question's gold answer picks,
# and a short gold answer taken whole, only in the answer's first sentence: where an answer gives its
# choice, while a dump of the filing mentions every option somewhere. What the gold answer says of the
# measure (there is none, it does not apply, it is flat) by what the answer says of it.
LEAD_KINDS = {"term": "term", "option": "lead_term", "answer": "lead_phrase", "absence": "absence"} | {
    k: k for k in STATED_KINDS
}


def asks_for_figure(question: str, rules: Rules) -> bool:
    """Does the question ask for a number (rules: needles.figure_question_patterns)?"""
    return _asks(question, tuple(p.pattern for p in rules.needles.figure_question_patterns))


@lru_cache(maxsize=4096)
def _asks(question: str, patterns: tuple[str, ...]) -> bool:
    return bool(patterns) and re.search("|".join(f"(?:{p})" for p in patterns), question.lower()) is not None


def _decline_spans(decision) -> list[dict]:
    return [{"kind": "decline", "needle": p, "start": s, "end": e} for s, e, p in outermost(decision.spans)]


def money_key(question: Question) -> Figure:
    """The key as a value: a bare key in a question that declares its unit
    ("in USD millions") is read in that unit."""
    return money_key_value(question.money_key, question.text)


@lru_cache(maxsize=4096)
def money_key_value(key_text: str, question_text: str) -> Figure:
    key = parse_figure(key_text)
    scale = question_scale(question_text)
    if scale == 1 or key.scale_word is not None:
        return key
    # a key in the question's unit ("$382.00" in USD millions) is padded to two
    # decimals by convention: its trailing zeros are format, not precision
    exponent = key.value.normalize().as_tuple().exponent
    return replace(key, decimals=max(0, -exponent)).scaled(scale)


def matches_key(key: Figure, fig: Figure, scale: Decimal, tol: Decimal) -> bool:
    """An answer figure is the key as written, or, with no unit word, in the question's unit."""
    return key.matches(fig, tol) or (scale != 1 and fig.scale_word is None and key.matches(fig.scaled(scale), tol))


@lru_cache(maxsize=4096)  # one question's needles, for its every answer
def _sourced(mined: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, str, str], ...]:
    """(needle, kind, source) for each mined needle; a pair without its source is from the gold text."""
    return tuple((n, k, rest[0] if rest else "gold_text") for n, k, *rest in mined)


def _find(needle: str, kind: str, text: str, figures: list[Figure], tol: Decimal, rules: Rules):
    """The span of `needle` in the answer, matched as its `kind` says; a figure the gold answer computed
    is found with the slack its calculation allows (see same_computed_figure)."""
    gold = figure_needle(needle) if kind == "computed_figure" else None
    if gold is None:
        return find_needle(needle, text, figures, tol, kind)
    n = rules.needles
    return find_computed_figure(gold, figures, n.computed_last_place, n.computed_ratio_as_percent)


def _grade_answerable(
    question: Question,
    answer: str,
    citations: list[str],
    rules: Rules,
    mined: tuple[tuple[str, str, str], ...],
    money_q: bool,
) -> Grade:
    whole = blank_citations(answer, rules)
    decision = decide(whole, rules)
    if decision.declined:
        return Grade(
            "wrong",
            True,
            outcomes.DECLINED_ANSWERABLE,
            outcomes.ANSWERABLE_DECLINED,
            money_q,
            matched=_decline_spans(decision),
        )
    text = own_voice(whole, rules)  # figures and needles count only in the answer's own voice
    figures = find_figures(text)
    tol = Decimal(str(rules.money.relative_tolerance))
    scale = question_scale(question.text)
    matched: list[dict] = []

    key = money_key(question) if question.money_key is not None else None
    money = [f for f in figures if f.is_money]
    # The answer's figure is the one it opens with ("They owe $44,322. Total income was ...") or ends on
    # ("... - $13,997 million = $5,818 million"): the others are inputs and context it mentions. A key
    # buried among other figures is a dump of figures, not an answer. When the answer writes out a
    # calculation that ends on its result, the figure it opens with is an input (text/calculation.py).
    asserted = money[-1:] if concludes_calculation(text, money) else money[:1] + money[-1:]
    if money_q and key is not None and not any(matches_key(key, f, scale, tol) for f in asserted):
        wrong = [f for f in money if not matches_key(key, f, scale, tol)]
        if wrong:
            spans = [{"kind": "wrong_money", "needle": f.text, "start": f.start, "end": f.end} for f in wrong]
            return Grade(
                "wrong", False, outcomes.WRONG_MONEY, outcomes.MONEY_WRONG_FIGURE, True, [f.text for f in wrong], spans
            )

    for needle in question.must_not_contain:
        span = find_needle(needle, text, figures, tol)
        if span:
            matched.append({"kind": "must_not_contain", "needle": needle, "start": span[0], "end": span[1]})
            return Grade(
                "wrong", False, outcomes.FORBIDDEN_CLAIM, outcomes.NEEDLES_MUST_NOT_CONTAIN, money_q, matched=matched
            )

    # each check is a list of (needle, match kind) alternatives; a check passes when any matches
    # an authored figure that mining found nowhere in the filing was computed for the gold answer
    made = {n for n, k, src in mined if k in FIGURE_KINDS and src == COMPUTED}
    checks: list[tuple[str, list[tuple[str, str]]]] = [
        ("must_contain", [(n, "computed_figure" if n in made else "phrase")]) for n in question.must_contain
    ]
    if question.must_contain_any:
        checks.append(("must_contain_any", [(n, "phrase") for n in question.must_contain_any]))
    source = "authored"
    stated = stated_polarity(text)
    implied = question.polarity is not None and stated is None
    if implied:
        stated = implied_polarity(question.text, text, rules)
        if stated and any(stated[1] <= s < stated[2] for s, _, _ in decision.spans):
            stated = None  # a sentence that declines ("there is no information on X's ratio") restates, not answers
    if not checks and key is None:
        source = "mined"
        # every kept figure; the kept names, quotes and phrases (one of them) only when there is
        # no figure, since they are weaker evidence than figures. Figures computed for the gold
        # answer (never printed in the filing) are required where the question asks for a number;
        # elsewhere they are one acceptable needle among the names and phrases ("Which region ...?"
        # "Las Vegas, ~90% of EBITDAR"), and a yes/no answer that gives its polarity needs none.
        computed = [(n, "computed_figure") for n, k, src in mined if k in FIGURE_KINDS and src == COMPUTED]
        if question.polarity and stated:
            computed = []
        required = asks_for_figure(question.text, rules)
        checks = [("mined", [(n, "mined_figure")]) for n, k, src in mined if k in FIGURE_KINDS and src != COMPUTED]
        checks += [("mined", [(n, "date")]) for n, k, _ in mined if k == "date"]  # a day is as exact as a figure
        checks += [("mined", [c]) for c in computed] if required else []
        terms = [(n, LEAD_KINDS.get(k, "phrase")) for n, k, _ in mined if k not in FIGURE_KINDS and k != "date"]
        alternatives = terms + ([] if required else computed)
        if alternatives and not checks:
            checks.append(("mined_any", alternatives))
    if question.polarity and stated and stated[0] != question.polarity:
        span = {"kind": "polarity", "needle": stated[0], "start": stated[1], "end": stated[2]}
        return Grade("wrong", False, outcomes.WRONG_YES_NO, outcomes.POLARITY_WRONG, money_q, matched=[span])
    if question.polarity and stated:
        checks.append(("polarity", [(stated[0], "implied" if implied else "polarity")]))
    if not checks and key is None:
        # not silently graded: no verdict but "ungradable", counted apart in the scorecard
        reason = outcomes.UNGRADABLE_NO_YES_NO if question.polarity else outcomes.UNGRADABLE_NO_NEEDLES
        return Grade("ungradable", False, reason, outcomes.NEEDLES_UNGRADABLE, money_q, ungradable=True)

    total, passed = len(checks) + (key is not None), 0
    if key is not None:
        hit = next((f for f in figures if matches_key(key, f, scale, tol)), None)
        if hit is not None:
            passed += 1
            matched.append({"kind": "money_key", "needle": question.money_key, "start": hit.start, "end": hit.end})
    for label, alternatives in checks:
        for needle, kind in alternatives:
            span = stated[1:] if kind == "implied" else _find(needle, kind, text, figures, tol, rules)
            if span:
                passed += 1
                matched.append({"kind": label, "needle": needle, "start": span[0], "end": span[1]})
                break

    if passed < total:
        verdict = "partial" if passed else "wrong"
        return Grade(
            verdict,
            False,
            outcomes.MISSING_NEEDLES,
            outcomes.needles_rule(source, "some" if passed else "none"),
            money_q,
            matched=matched,
        )
    if citations and rules.citations.require_golden_when_cited and question.golden_docs:
        if not set(citations) & set(question.golden_docs):
            return Grade(
                "partial", False, outcomes.NOT_GOLDEN_CITATION, outcomes.CITATIONS_NOT_GOLDEN, money_q, matched=matched
            )
    return Grade("correct", False, None, outcomes.needles_rule(source, "all"), money_q, matched=matched)


def grade(
    question: Question, answer: str, citations: list[str], rules: Rules, mined: list[tuple[str, str]] = ()
) -> Grade:
    """The verdict on `answer` to `question` under `rules` (pure: same inputs, same grade);
    an answer longer than rules.answers.max_chars is graded on its prefix, and says so."""
    if len(answer) > rules.answers.max_chars:
        return replace(_grade(question, answer[: rules.answers.max_chars], citations, rules, mined), truncated=True)
    return _grade(question, answer, citations, rules, mined)


def _grade(question: Question, answer: str, citations: list[str], rules: Rules, mined) -> Grade:
    money_q = is_money_question(question, rules)
    if question.kind == "negative":
        decision = decide(blank_citations(answer, rules), rules)
        if decision.declined:
            return Grade("correct", True, None, outcomes.NEGATIVE_DECLINED, money_q, matched=_decline_spans(decision))
        return Grade("wrong", False, outcomes.NOT_DECLINED, outcomes.NEGATIVE_NOT_DECLINED, money_q)
    result = _grade_answerable(
        question,
        answer,
        citations,
        rules,
        _sourced(mined if isinstance(mined, tuple) else tuple(map(tuple, mined))),
        money_q,
    )
    if question.kind == "ambiguous" and result.declined:
        return Grade("correct", True, None, outcomes.AMBIGUOUS_DECLINED, money_q, matched=result.matched)
    if question.kind == "ambiguous":
        result.rule = outcomes.AMBIGUOUS_PREFIX + result.rule
    return result
