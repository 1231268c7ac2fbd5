"""Find a needle in a text: figures by value as whole tokens, names as whole
phrases (articles, punctuation, hyphens, initials, plural -s and footnote
markers normalized), single words by stem.

`$20.00` is never found inside `-$10,020.00`, `842` never inside `8420`, and
"flood" never inside "floodplain"; `$1,577 million` is found as `$1.577
billion`, and the term "reduces" is found as "reduced". Needle mining and the
grader both use these functions, so "kept because the gold text has it" and
"credited because the answer has it" mean the same thing.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from ragpipe.text.dates import DAY_TOKEN, MONTH_TOKENS, find_date
from ragpipe.text.figures import Figure, find_figures, same_value
from ragpipe.text.needle_kinds import MatchKind
from ragpipe.text.sentences import first_sentence
from ragpipe.text.stated import ANSWER_SAYS
from ragpipe.text.tokenize import tokenize

_WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019-][A-Za-z0-9]+)*")


@lru_cache(maxsize=4096)
def figure_needle(needle: str) -> Figure | None:
    """The figure a needle denotes when the needle is nothing but one figure."""
    figures = find_figures(needle.strip())
    if len(figures) == 1 and figures[0].text == needle.strip():
        return figures[0]
    return None


_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_ARTICLES = {"a", "an", "the"}


def _fold(token: str) -> str:
    """Plural -s folded: "deposits" is "deposit" ("ss" and short words kept: "class", "gas")."""
    return token[:-1] if len(token) > 3 and token.endswith("s") and not token.endswith("ss") else token


_FOOTNOTE = re.compile(r"([a-z]+)\d{1,2}")


@lru_cache(maxsize=512)
def _tokens(text: str) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...], dict[str, list[int]]]:
    """The words of `text` as compared: lower case, punctuation and hyphens as breaks ("J.R." is
    "j r"), articles and a possessive "s" dropped, plural -s folded; with each word's span, and
    where each word stands (a footnote-marked "hale2" stands as "hale" too)."""
    words, spans, where = [], [], {}
    for m in _TOKEN.finditer(text.lower().replace("\u2019", "'")):
        token = m.group(0)
        if token in _ARTICLES or token == "s":
            continue
        word = _fold(token)
        where.setdefault(word, []).append(len(words))
        if word[-1].isdigit() and word[0].isalpha():
            marked = _FOOTNOTE.fullmatch(word)
            if marked:
                where.setdefault(marked.group(1), []).append(len(words))
        words.append(word)
        spans.append(m.span())
    return tuple(words), tuple(spans), where


def _same_word(needle: str, word: str) -> bool:
    """Equal, or the text's word carries a footnote marker glued on ("Hale2" for "Hale")."""
    if word == needle:
        return True
    return (
        needle.isalpha()
        and word[: len(needle)] == needle
        and word[len(needle) :].isdigit()
        and len(word) - len(needle) <= 2
    )


def find_phrase(phrase: str, text: str) -> tuple[int, int] | None:
    """Span of `phrase` in `text`, compared word by word as `_tokens` normalizes them; a date given
    more precisely than the phrase still matches ("March 3, 2004" for "March 2004")."""
    target = _tokens(phrase)[0]
    if not target or target[0] not in text.lower():  # the folded first word is a prefix of its every form
        return None
    words, spans, where = _tokens(text)
    acronyms = _acronyms(phrase)
    for i in where.get(target[0], ()):  # only where the first word stands
        j = _match_at(target, words, i, acronyms)
        if j is not None:
            return spans[i][0], spans[j - 1][1]
    return None


_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")


@lru_cache(maxsize=512)
def _acronyms(phrase: str) -> frozenset[str]:
    """The phrase's words written in capitals ("JV" in "Consumer Healthcare JV Transaction"), folded."""
    return frozenset(_fold(a.lower()) for a in _ACRONYM.findall(phrase))


def _spelled_out(acronym: str, words: tuple[str, ...], j: int) -> int:
    """How many words from words[j] spell `acronym` by their initials ("joint venture" for "jv"), with the
    acronym itself in brackets after them ("joint venture (jv)"); 0 when they do not."""
    n = len(acronym)
    if j + n > len(words) or any(not w[:1] == c for w, c in zip(words[j : j + n], acronym)):
        return 0
    return n + (j + n < len(words) and words[j + n] == acronym)


def _match_at(target: tuple[str, ...], words: tuple[str, ...], i: int, acronyms=frozenset()) -> int | None:
    """The index after the match of `target` starting at words[i], or None. A capitalized acronym of the
    target is also met by the words it abbreviates."""
    j = i
    for k, want in enumerate(target):
        if j >= len(words):
            return None
        spelled = _spelled_out(want, words, j) if want in acronyms and not _same_word(want, words[j]) else 0
        if spelled:
            j += spelled
            continue
        if not _same_word(want, words[j]):
            # "March 2004" is met by "March 3, 2004": a day may stand between a month and a year
            if (
                k > 0
                and target[k - 1] in MONTH_TOKENS
                and want.isdigit()
                and len(want) == 4
                and DAY_TOKEN.fullmatch(words[j])
            ):
                j += 1
                if j < len(words) and _same_word(want, words[j]):
                    j += 1
                    continue
            return None
        j += 1
    return j


@lru_cache(maxsize=512)
def _stem_index(text: str) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    """The content-word stems of `text` with their spans (as `tokenize` sees them)."""
    stems, spans = [], []
    for m in _WORD.finditer(text):
        tokens = tokenize(m.group(0))
        if len(tokens) == 1:
            stems.append(tokens[0])
            spans.append((m.start(), m.end()))
    return tuple(stems), tuple(spans)


def find_stem(term: str, text: str) -> tuple[int, int] | None:
    """Span of the first run of words in `text` whose stems are those of `term`
    ("activation functions" is found as "activation function"), stop words aside."""
    target = tuple(tokenize(term))
    if not target:
        return find_phrase(term, text)
    stems, spans = _stem_index(text)
    n = len(target)
    first = target[0]
    for i, stem in enumerate(stems):
        if stem == first and stems[i : i + n] == target:
            return spans[i][0], spans[i + n - 1][1]
    return None


def find_figure(fig: Figure, figures: list[Figure], tolerance: Decimal = Decimal(0)) -> tuple[int, int] | None:
    for other in figures:
        if fig.matches(other, tolerance):
            return other.start, other.end
    return None


def same_figure_loosely(gold: Figure, other: Figure) -> bool:
    """A gold figure found where signs and units are conventions of the page:
    by magnitude (filings print an outflow of 1,577 as (1,577); answers bullet
    lists with "-"), at the gold's precision, and a gold written with a scale
    word (`$411 million`) also as its bare number in a table "in millions"."""
    if gold.is_percent != other.is_percent:
        return False
    target, seen = abs(gold.value), abs(other.value)
    if target == seen or same_value(target, gold.decimals, seen, other.decimals):
        return True
    if gold.scale_word is None or other.scale_word is not None:
        return False
    bare = gold.magnitude().mantissa()
    return same_value(bare.value, bare.decimals, seen, other.decimals)


def find_figure_loosely(gold: Figure, figures: list[Figure]) -> tuple[int, int] | None:
    for other in figures:
        if same_figure_loosely(gold, other):
            return other.start, other.end
    return None


def same_computed_figure(gold: Figure, other: Figure, last_place: int, ratio_as_percent: bool) -> bool:
    """A figure the gold answer computed (a ratio, a growth rate), found in an answer that computed it
    too: as `same_figure_loosely`, or off by at most `last_place` units in the last digit the gold
    writes, when the gold has two significant digits or more (each step of a calculation rounds:
    3.45 for 3.46, 101.4% for 101.5%; never 2% for 3%, nor -55.2% for 55.1%), or, with `ratio_as_percent`, a
    plain ratio given as a percent or the other way round (79.82% for 0.8). Never money: the money key is exact."""
    if same_figure_loosely(gold, other):
        return True
    if gold.is_money or other.is_money:
        return False
    if gold.is_percent != other.is_percent:
        if not ratio_as_percent or gold.scale_word or other.scale_word:
            return False
        hundred = Decimal(100)
        value = other.value / hundred if other.is_percent else other.value * hundred
        decimals = other.decimals + (2 if other.is_percent else -2)
        other = Figure(other.text, value, max(decimals, 0), False, gold.is_percent, other.start, other.end)
        if same_figure_loosely(gold, other):
            return True
    if not last_place or other.decimals < gold.decimals or gold.value == 0:
        return False
    if (gold.value < 0) != (other.value < 0):  # the slack is for rounding; a result of the other sign is
        return False  # another calculation (-55.2% for 55.1%), not a rounding of this one
    unit = Decimal(1).scaleb(-gold.decimals)
    if abs(gold.value) < 10 * unit:  # one significant digit: a unit off is a different answer
        return False
    rounded = abs(other.value).quantize(unit, rounding=ROUND_HALF_UP)
    return abs(rounded - abs(gold.value)) <= last_place * unit


def find_computed_figure(gold: Figure, figures: list[Figure], last_place: int, ratio_as_percent: bool):
    for other in figures:
        if same_computed_figure(gold, other, last_place, ratio_as_percent):
            return other.start, other.end
    return None


_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty"
).split()
NUMBER_WORDS = dict(enumerate(_UNITS)) | {30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy"}
NUMBER_WORDS |= {80: "eighty", 90: "ninety"}


def _number_word(fig: Figure, text: str) -> tuple[int, int] | None:
    """A plain whole number written out ("eight legs" for 8): people write small counts in words. Not 0
    or 1: "one of the ..." and "none" are not counts."""
    if fig.is_money or fig.is_percent or fig.scale_word or fig.decimals != 0 or not 2 <= fig.value <= 90:
        return None
    word = NUMBER_WORDS.get(int(fig.value))
    m = re.search(rf"\b{word}\b", text, re.IGNORECASE) if word else None
    return (m.start(), m.end()) if m else None


def find_needle(
    needle: str,
    text: str,
    figures: list[Figure],
    tolerance: Decimal = Decimal(0),
    kind: MatchKind = MatchKind.PHRASE,
) -> tuple[int, int] | None:
    """Span of `needle` in `text` (whose figures are `figures`), or None.
    A needle that is one figure is matched by value (`kind="mined_figure"`: loosely,
    as needle mining found it); `kind="term"` (mined words and short phrases)
    matches by stems; anything else as a whole phrase."""
    fig = figure_needle(needle)
    if fig is not None:
        found = (
            find_figure_loosely(fig, figures)
            if kind == MatchKind.MINED_FIGURE
            else find_figure(fig, figures, tolerance)
        )
        return found if found is not None else _number_word(fig, text)
    if kind == MatchKind.ABSENCE:  # the answer's first sentence says there is none
        _, end = first_sentence(text)
        m = ANSWER_SAYS[MatchKind.ABSENCE].search(text, 0, end)
        return (m.start(), m.end()) if m else None
    if kind == MatchKind.DATE:
        return find_date(needle, text)
    if kind in ANSWER_SAYS:  # the answer says the measure does not apply, or that the quantity is flat or nil
        m = ANSWER_SAYS[kind].search(text)
        return (m.start(), m.end()) if m else None
    if kind in (MatchKind.LEAD_TERM, MatchKind.LEAD_PHRASE):
        _, end = first_sentence(text)
        return (find_stem if kind == MatchKind.LEAD_TERM else find_phrase)(needle, text[:end])
    if kind == MatchKind.TERM:
        return find_stem(needle, text)
    if kind == MatchKind.POLARITY:
        m = re.search(rf"\b{re.escape(needle)}\b", text, re.IGNORECASE)
        return (m.start(), m.end()) if m else None
    return find_phrase(needle, text)
