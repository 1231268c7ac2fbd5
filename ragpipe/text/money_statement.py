"""What an answer states each money figure as: the measure, its period and currency, and whether it asserts it.

A money question asks for one amount ("What is the balance due on the water bill?"). A bill, lease or
filing gives several, so an answer that carries the key may still state another amount for what was
asked ("The balance due is $48.75; last month's charges were $61.20."). This reads, for each money
figure of the answer's own voice:

- the measure it is stated for (text/measures.py `bind`: "the balance due is $48.75", "$311.08 of new
  charges", "Net pay: $2,231.60", "they owe $50,123", "a $75 late fee");
- its period ("$390 a week", "$2,150 per month", "weekly rent") and currency ($, US$, USD; €, EUR; £);
- whether the answer asserts it: not denied ("do not owe $44,322", "not $X but $Y"), not withdrawn by a
  correction after it ("$44,322, actually no, $51,377", "$48.75, sorry, $61.20"), and in a main clause
  ("While line 33 lists $1,145 of payments, the refund due is $845": the concessive clause concedes).

And the measure a money question asks, as a head with its qualifiers and period, read from the question's
shape ("What is the weekly rent for the unit?" asks rent, weekly; "What total did the March statement
show?" asks total; "How much do they owe?" asks owe), not as every word of the question.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, replace
from functools import lru_cache

from ragpipe.text.clauses import clause_close, clause_ends
from ragpipe.text.figures import Figure, find_figures
from ragpipe.text.measures import Binding, bind, stem
from ragpipe.text.sentences import SENTENCE_REACH, asking_sentence, sentence_start
from ragpipe.text.unasserted import figure_denied, figure_withdrawn
from ragpipe.text.words import WORD, folded

PERIODS = {
    "hour": "hour", "hourly": "hour", "hr": "hour",
    "day": "day", "daily": "day",
    "week": "week", "weekly": "week", "wk": "week",
    "month": "month", "monthly": "month", "mo": "month",
    "quarter": "quarter", "quarterly": "quarter", "qtr": "quarter",
    "year": "year", "yearly": "year", "annual": "year", "annually": "year", "annum": "year", "yr": "year",
}  # fmt: skip
_PERIOD_AFTER = re.compile(
    r"\s*(?:(?:a|an|per|each|every|/)\s*(?P<unit>hour|hr|day|week|wk|month|mo|quarter|qtr|year|yr|annum)\b"
    r"|(?P<adverb>hourly|daily|weekly|monthly|quarterly|yearly|annually)\b)",
    re.IGNORECASE,
)
_PERIOD_WORD = re.compile(r"\b(hourly|daily|weekly|monthly|quarterly|yearly|annual|annually)\b", re.IGNORECASE)
_CURRENCY_MARK = (("US$", "USD"), ("USD", "USD"), ("$", "USD"), ("EUR", "EUR"), ("\u20ac", "EUR"), ("\u00a3", "GBP"))
_CURRENCY_AFTER = re.compile(r"\s*(dollars?|euros?|pounds?(?: sterling)?|yen|usd|eur|gbp)\b", re.IGNORECASE)
_CURRENCY_WORDS = {
    "dollar": "USD", "usd": "USD", "euro": "EUR", "eur": "EUR", "pound": "GBP", "gbp": "GBP", "yen": "JPY"
}  # fmt: skip

# a clause that concedes or sets aside: its figures are context, not what the answer asserts
_CONCESSIVE = re.compile(
    r"\s*(?:while|whilst|although|though|even though|whereas|despite|besides|apart from|aside from"
    r"|if|unless|before|after)\b(?:[^,;.]|(?<=\d)[,.](?=\d))*$",  # a figure's comma or point ends no clause
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Asked:
    """The measure a money question asks: its words' stems (head and qualifiers) and its period, if any."""

    words: frozenset[str]
    period: str | None = None


@dataclass(frozen=True)
class Stated:
    """One money figure of an answer, read for what the answer states it as."""

    figure: Figure
    binding: Binding | None  # the measure its clause states it for, if a shape binds one
    period: str | None
    currency: str
    asserted: bool  # neither denied nor withdrawn
    main: bool  # in a main clause: not a concessive or conditional one
    compares: bool  # its clause compares or dates: it may be another period's figure


def currency_of(text: str, after: str = "") -> str:
    """The currency a figure is written in ("USD" for $ and US$, "EUR", "GBP"), "" where it names none."""
    head = text.lstrip("-\u2212( ")
    for mark, code in _CURRENCY_MARK:
        if head.upper().startswith(mark):
            return code
    word = _CURRENCY_AFTER.match(after)
    return _CURRENCY_WORDS.get(word.group(1).lower().split()[0].rstrip("s"), "") if word else ""


def period_after(text: str, end: int) -> str | None:
    """The period written right after a figure ("$390 a week", "$2,150 per month", "$75/mo", "$12 hourly")."""
    m = _PERIOD_AFTER.match(text, end)
    if m is None:
        return None
    return PERIODS[(m.group("unit") or m.group("adverb")).lower()]


_PERIOD_LATER = re.compile(r"\b(?:a|an|per|each|every)\s+(hour|day|week|month|quarter|year|annum)\b", re.IGNORECASE)


def _period_later(rest: str) -> str | None:
    """A period later in the figure's clause ("$878.05 of rent a month")."""
    m = _PERIOD_LATER.search(rest) or _PERIOD_WORD.search(rest)
    return PERIODS[m.group(1).lower()] if m else None


def period_in(words: str) -> str | None:
    """The period a measure phrase names ("weekly rent", "annual premium"), if one."""
    m = _PERIOD_WORD.search(words)
    return PERIODS[m.group(1).lower()] if m else None


def _clause_start(text: str, offset: int, ends: list[int]) -> int:
    i = bisect_right(ends, offset) - 1
    return ends[i] if i >= 0 else 0


_CORRECTION_REACH = 400  # characters back from a correction to the figure it corrects


_DETERMINER_BEFORE = re.compile(r"\b(?:a|an|the|your|their|its|his|her|our|this|that)\s+$", re.IGNORECASE)
_NOUNS_AFTER = re.compile(r"\s+((?:[a-z][a-z'-]*)(?:\s+[a-z][a-z'-]*){0,2})")
_NOT_A_NOUN = frozenset(
    """is are was were be been will would applies apply applied charged paid for of in on to per a an
    and or but with from by at as that which this each every month week year day hour quarter""".split()
)


def _attributive(text: str, f: Figure) -> Binding | None:
    """A figure between a determiner and its noun states the noun: "a $75 late fee", "the $150 cleaning fee"."""
    if _DETERMINER_BEFORE.search(text, max(0, f.start - 8), f.start) is None:
        return None
    m = _NOUNS_AFTER.match(text, f.end)
    if m is None:
        return None
    words = []
    for word in m.group(1).split():
        if word in _NOT_A_NOUN:
            break
        words.append(word)
    if not words:
        return None
    return Binding(f, frozenset(stem(w) for w in words), " ".join(words))


def _corrected_binding(whole: str, f: Figure, whole_ends: list[int]) -> Binding | None:
    """The binding of the money figure before `f` in `whole` (`whole_ends`: its clause ends), as `f`'s (a
    correction restates the figure for the measure the corrected one was stated for)."""
    window = max(0, f.start - _CORRECTION_REACH)  # the figure it corrects is near: reading stays linear
    before = [g for g in find_figures(whole[window : f.start]) if g.is_money]
    if not before:
        return None
    corrected = replace(before[-1], start=before[-1].start + window, end=before[-1].end + window)
    found = bind(whole, corrected, whole_ends)
    return None if found is None else Binding(f, found.words, found.phrase)


def main_clause(text: str, f: Figure) -> bool:
    """The figure is not in a concessive or conditional clause opening its sentence ("While line 33 lists
    $1,145 of payments, the refund due is $845": $1,145 is conceded, $845 asserted)."""
    if _CONCESSIVE.match(text, sentence_start(text, f.start), f.start) is None:
        return True
    # ... and the subordinate clause closes after it, before its sentence ends: "after the $16.00 credit the
    # amount due is $26.99" opens with "after" and has no clause after a comma: it is the main clause
    return clause_close(text, f.end, f.end + SENTENCE_REACH) != ","


_CORRECTS = re.compile(
    r"(?:\b(?:correction|sorry|actually(?:\s+no)?|i\s+mean|i\s+meant|rather|make\s+that)\b[\s,:;.!\u2014\u2013-]*)$",
    re.IGNORECASE,
)


def read_statements(
    text: str, money: list[Figure], comparing: re.Pattern[str], whole: str | None = None, ends: list[int] | None = None
) -> list[Stated]:
    """What `text` states each of its `money` figures as (in order of the text). `whole`: the answer before
    its corrected statements were blanked out of `text` (offsets alike), where a correction's figure finds
    what the figure it corrects was stated for ("The deductible is $95,463; correction: $496.15"). `ends`:
    `clause_ends(text)`, when already read. `comparing`: the words of a clause that compares or dates, whose
    figure may be another period's (rules.yaml `money.compares`)."""
    ends = clause_ends(text) if ends is None else ends
    whole_ends: list[int] | None = None  # read once, where a correction needs them
    out: list[Stated] = []
    for i, f in enumerate(money):
        binding = bind(text, f, ends)
        if binding is None:
            binding = _attributive(text, f)  # "a $75 late fee"
        if binding is None and _CORRECTS.search(text, max(0, f.start - 40), f.start):
            if whole_ends is None:
                whole_ends = clause_ends(whole) if whole else ends
            binding = _corrected_binding(whole or text, f, whole_ends)  # stated for what the corrected one was
        after = bisect_right(ends, f.end)
        clause_end = ends[after] if after < len(ends) else len(text)
        clause = text[_clause_start(text, f.start, ends) : clause_end]
        period = (
            period_after(text, f.end)
            or (period_in(binding.phrase) if binding else None)
            or _period_later(text[f.end : clause_end])  # "$878.05 of rent a month"
        )
        taken_back = figure_denied(text, f, ends) or figure_withdrawn(
            text, f, money[i + 1] if i + 1 < len(money) else None
        )
        out.append(
            Stated(
                figure=f,
                binding=binding,
                period=period,
                currency=currency_of(f.text, text[f.end : f.end + 24]),
                asserted=not taken_back,
                main=main_clause(text, f),
                compares=comparing.search(clause) is not None,
            )
        )
    return out


# the shapes a money question asks in: the measure is the noun phrase they name, or the verb they ask of
_ASKS = (
    re.compile(
        r"^\s*(?:what|which)\s+(?:is|was|are|were|will\s+be|would\s+be)\s+(?P<np>.+?)"
        r"(?=\s+(?:on|for|in|at|during|from|under|to|by|that|which|as|after|before|with|according|of\s+the|of\s+this"
        r"|of\s+their|of\s+its)\b|\s*[?(,]|$)",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*(?:what|which)\s+(?P<np>[\w'\u2019 -]+?)\s+(?:is|was|are|were|did|does|do|has|have|had|will|would|can)\b"
        r"(?P<rest>[^?]*)",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*how\s+much\s+(?:is|was|are|were|will\s+be)\s+(?P<np>.+?)"
        r"(?=\s+(?:on|for|in|at|during|from|under|to|by|that|which|as|after|before|with|according)\b|\s*[?(,]|$)",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*how\s+much\s+(?:do|does|did|will|would|should|can)\s+.+?\s+(?P<verb>owe|pay|earn|spend|receive|get"
        r"|charge|refund|save|lose|make|collect|bill|deposit)\b(?P<rest>[^?]*)",
        re.IGNORECASE,
    ),
)
_DETERMINERS = frozenset("the a an this that these those its their his her your my our".split())
_ASKING = frozenset("amount value figure sum much".split())


@lru_cache(maxsize=4096)  # a question is asked of many answers
def asked_money_measure(question: str) -> Asked | None:
    """The measure a money question asks, as its shape names it; None for a shape not read here."""
    first = asking_sentence(question)
    for shape in _ASKS:
        m = shape.match(first)
        if m is None:
            continue
        if "verb" in m.groupdict() and m.group("verb"):
            return Asked(frozenset({stem(m.group("verb"))}), period_in(first))
        phrase = m.group("np")
        trailing = (m.groupdict().get("rest") or "").strip().rstrip("?").split()
        if trailing and trailing[-1].lower() in ("due", "owed", "payable"):  # "What refund is the taxpayer due?"
            phrase = f"{phrase} {trailing[-1]}"
        words = measure_words(phrase)
        if words:
            return Asked(words, period_in(phrase) or period_in(first))
    return None


def measure_words(phrase: str) -> frozenset[str]:
    """The stems of a measure phrase less determiners, possessors, names, periods and asking words."""
    kept = []
    for m in WORD.finditer(phrase):
        word = m.group(0)
        low = folded(word)
        if low in _DETERMINERS or low in _ASKING or low.rstrip("s") in PERIODS or low in PERIODS:
            continue
        if low.endswith("'s") or low.endswith("'"):  # a possessor: "the statement's total", "Keswick Mills'"
            continue
        if word[0].isupper() and not word.isupper():
            continue  # a name: the phrase never opens the question ("What was Ostrander Tools' operating income")
        kept.append(stem(word))
    return frozenset(kept)


def states(s: Stated, asked: Asked) -> bool:
    """The figure is stated for the asked measure: its binding holds every asked word (a period the phrase
    names is the figure's period, not a word of it), or every one but "due", "owed" or "payable" and
    nothing the question does not ask ("the refund is $845" for "What refund is the taxpayer due?", never
    "the previous balance is $X" for the balance due)."""
    if s.binding is None or not asked.words:
        return False
    words = frozenset(w for w in s.binding.words if w not in _PERIOD_STEMS)
    if asked.words <= words:
        return True
    core = asked.words - _OPTIONAL
    return bool(core) and core <= words <= asked.words


_OPTIONAL = frozenset(stem(w) for w in ("due", "owed", "payable"))


_PERIOD_STEMS = frozenset(stem(w) for w in PERIODS)
