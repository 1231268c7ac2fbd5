"""Find a needle in a text: figures by value as whole tokens, names as whole
phrases (words read as text/normalize.py reads them: diacritics, number
words, ordinals, months, articles, plurals, footnote markers), single words
by stem.

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
from itertools import chain

from ragpipe.text.dates import DAY_TOKEN, MONTH_NAMES, MONTH_TOKENS, find_date
from ragpipe.text.figures import Figure, find_figures, same_value
from ragpipe.text.names import NAME_WORD
from ragpipe.text.needle_kinds import MatchKind
from ragpipe.text.normalize import CARDINALS, ORDINALS, compared_words, fold_plural, fold_word, squashed
from ragpipe.text.sentences import opening_statements
from ragpipe.text.tokenize import tokenize
from ragpipe.text.words import ALNUM_RUN


@lru_cache(maxsize=4096)
def figure_needle(needle: str) -> Figure | None:
    """The figure a needle denotes when the needle is nothing but one figure."""
    figures = find_figures(needle.strip())
    if len(figures) == 1 and figures[0].text == needle.strip():
        return figures[0]
    return None


_FOOTNOTE = re.compile(r"([a-z]+)\d{1,2}")
_MONTHS = frozenset(MONTH_NAMES)


@lru_cache(maxsize=512)
def _tokens(text: str) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...], dict[str, list[int]]]:
    """The words of `text` as compared (text/normalize.py), each with its span, and where each word
    stands (a footnote-marked "hale2" stands as "hale" too)."""
    words, spans = compared_words(text)
    where: dict[str, list[int]] = {}
    for i, word in enumerate(words):
        where.setdefault(word, []).append(i)
        if word[-1].isdigit() and word[0].isalpha():
            marked = _FOOTNOTE.fullmatch(word)
            if marked:
                where.setdefault(marked.group(1), []).append(i)
    return words, spans, where


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
    """Span of `phrase` in `text`, compared word by word as text/normalize.py reads them; a date given
    more precisely than the phrase still matches ("March 3, 2004" for "March 2004"), a middle initial may
    stand inside a name ("James J. Braddock" for "James Braddock"), a compound is one word or two
    ("seashells" for "sea shells", "J. R. R." for "JRR"), and a phrase that lost its letters outside ASCII
    meets the words they were dropped from ("Beyonc" for "Beyoncé")."""
    target = _tokens(phrase)[0]
    if not target:
        return None
    first = target[0]
    if first.isalpha() and first not in _MONTHS and first[:3] not in squashed(text):
        if text.isascii() or first[:3] not in squashed(_ascii_only(text)):
            return None  # every spelling of a plain word starts with its letters (quick refusal)
    words, spans, where = _tokens(text)
    acronyms = _acronyms(phrase)
    # where the first word stands, then where it is part of a compound: that scan is lazy, so a phrase found
    # where its first word stands never pays for it
    joined = (i for i, w in enumerate(words) if w != first and w[:1] == first[:1] and _joins(w, first))
    found = _first_match(target, words, spans, chain(where.get(first, ()), joined), acronyms)
    if found is None and phrase.isascii() and not text.isascii():  # a key that lost its other letters
        dropped = _dropped(text)
        if dropped != words:
            found = _first_match(target, dropped, spans, (i for i, w in enumerate(dropped) if w == first), acronyms)
    if found is None and len(target) > 1:
        found = _surname_first(phrase, target, text, acronyms)
    return found


def _is_name(phrase: str, target: tuple[str, ...]) -> bool:
    """Does `phrase` read as a person's name: two to four capitalized words ("J. R. R. Tolkien" counts its
    initials as words), the last a surname of two letters or more, none a number or a month?"""
    written = phrase.split()
    return (
        2 <= len(written) <= 4
        and all(NAME_WORD.fullmatch(w) for w in written)
        and len(target[-1]) > 1
        and all(w.isalpha() and w not in _MONTHS for w in target)
    )


def _surname_first(phrase: str, target: tuple[str, ...], text: str, acronyms) -> tuple[int, int] | None:
    """Span of the name `phrase` written surname first, a comma after the surname ("Tolkien, J.R.R." for
    "J. R. R. Tolkien"), as indexes and reference lists write names; without the comma the same words are
    another name ("Hilton Paris" is not "Paris Hilton")."""
    words, spans, where = _tokens(text)
    surnames = where.get(target[-1], ())
    if not surnames or not _is_name(phrase, target):
        return None
    surname_first = (target[-1], *target[:-1])
    for i in surnames:
        if i + 1 < len(words) and "," in text[spans[i][1] : spans[i + 1][0]]:
            j = _match_at(surname_first, words, i, acronyms)
            if j is not None:
                return spans[i][0], spans[j - 1][1]
    return None


def _first_match(target, words, spans, starts, acronyms) -> tuple[int, int] | None:
    """The span of the first match of `target` in `words` from one of `starts`, or None."""
    for i in starts:
        j = _match_at(target, words, i, acronyms)
        if j is not None:
            return spans[i][0], spans[j - 1][1]
    return None


def _ascii_only(text: str) -> str:
    """`text` without its characters outside ASCII (in C: it is asked once per needle of a non-ASCII answer)."""
    return text.encode("ascii", "ignore").decode("ascii")


@lru_cache(maxsize=64)
def _dropped(text: str) -> tuple[str, ...]:
    """`text`'s compared words with the letters outside ASCII dropped instead of folded: how a key that
    went through an encoding that lost them ("Beyonc", "Gtterdmmerung", "Niccol Paganini") writes them."""
    words, spans, _ = _tokens(text)
    out = []
    for word, (start, end) in zip(words, spans):
        raw = text[start:end].lower()
        kept = _ascii_only(raw)
        out.append(fold_word(kept) if not raw.isascii() and kept.isalpha() else word)
    return tuple(out)


def _joins(word: str, want: str) -> bool:
    """Could `word` and `want` be one compound written as one word or as several?"""
    return word.startswith(want) or want.startswith(word)


_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")


@lru_cache(maxsize=512)
def _acronyms(phrase: str) -> frozenset[str]:
    """The phrase's words written in capitals ("JV" in "Consumer Healthcare JV Transaction"), folded."""
    return frozenset(fold_plural(a.lower()) for a in _ACRONYM.findall(phrase))


def _spelled_out(acronym: str, words: tuple[str, ...], j: int) -> int:
    """How many words from words[j] spell `acronym` by their initials ("joint venture" for "jv"), with the
    acronym itself in brackets after them ("joint venture (jv)"); 0 when they do not."""
    n = len(acronym)
    if j + n > len(words) or any(not w[:1] == c for w, c in zip(words[j : j + n], acronym)):
        return 0
    return n + (j + n < len(words) and words[j + n] == acronym)


def _match_at(target: tuple[str, ...], words: tuple[str, ...], i: int, acronyms=frozenset()) -> int | None:
    """The index after the match of `target` starting at words[i], or None. A capitalized acronym of the
    target is also met by the words it abbreviates; a compound matches written as one word or as several."""
    j, k = i, 0
    while k < len(target):
        want = target[k]
        if j >= len(words):
            return None
        spelled = _spelled_out(want, words, j) if want in acronyms and not _same_word(want, words[j]) else 0
        if spelled:
            j, k = j + spelled, k + 1
            continue
        if _same_word(want, words[j]):
            j, k = j + 1, k + 1
            continue
        # "March 2004" is met by "March 3, 2004": a day may stand between a month and a year
        if (
            k > 0
            and target[k - 1] in MONTH_TOKENS
            and want.isdigit()
            and len(want) == 4
            and DAY_TOKEN.fullmatch(words[j])
        ):
            if j + 1 < len(words) and _same_word(want, words[j + 1]):
                j, k = j + 2, k + 1
                continue
        # "James J. Braddock" for "James Braddock": a middle initial inside a name
        if 0 < k and len(words[j]) == 1 and words[j].isalpha() and j + 1 < len(words) and words[j + 1] == want:
            j, k = j + 2, k + 1
            continue
        taken = _compound(target, k, words, j)
        if taken is None:
            return None
        k, j = k + taken[0], j + taken[1]
    return j


def _compound(target: tuple[str, ...], k: int, words: tuple[str, ...], j: int) -> tuple[int, int] | None:
    """(target words, text words) that spell the same compound from target[k] and words[j] when one side
    writes it as one word and the other as two or three ("seashell" / "sea shell"), or None."""
    want, word = target[k], words[j]
    if not _joins(word, want) or not want.isalnum() or not word.isalnum():
        return None
    longer, parts, one_is_target = (want, words[j:], True) if len(want) > len(word) else (word, target[k:], False)
    built = ""
    for n, part in enumerate(parts[:3], 1):
        built += part
        if built == longer and n > 1:
            return (1, n) if one_is_target else (n, 1)
        if not longer.startswith(built):
            return None
    return None


@lru_cache(maxsize=512)
def _stem_index(text: str) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    """The content-word stems of `text` with their spans (as `tokenize` sees them)."""
    stems, spans = [], []
    for m in ALNUM_RUN.finditer(text):
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


LAST_PLACE, RATIO_AS_PERCENT = "last_place", "ratio_as_percent"  # the lenient readings of a computed figure


def computed_reading(gold: Figure, other: Figure, last_place: int, ratio_as_percent: bool) -> str | None:
    """How `other` meets the computed `gold`, when it does: "" as written (loosely, as a filing's figure
    is met), or the lenient reading it needed: LAST_PLACE (a unit off in the gold's last digit) or
    RATIO_AS_PERCENT (a ratio given as a percent, or the other way round). None: it does not."""
    if same_figure_loosely(gold, other):
        return ""
    if not same_computed_figure(gold, other, last_place, ratio_as_percent):
        return None
    if gold.is_percent != other.is_percent and not same_computed_figure(gold, other, 0, ratio_as_percent):
        return LAST_PLACE  # a ratio as a percent, and a unit off besides: the slack is the looser reading
    return RATIO_AS_PERCENT if gold.is_percent != other.is_percent else LAST_PLACE


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


def _number_word(fig: Figure, text: str) -> tuple[int, int] | None:
    """A plain whole number written out ("eight legs" for 8, "thirty-four" for 34): people write small
    counts in words. Not 0 or 1: "one of the ..." and "none" are not counts. An ordinal in words is its
    number as an ordinal in digits is ("thirty-fourth" for 34, as "34th"), but "second" is also a unit."""
    if fig.is_money or fig.is_percent or fig.scale_word or fig.decimals != 0 or not 2 <= fig.value <= 99:
        return None
    wanted = str(int(fig.value))
    words, spans = compared_words(text)
    for word, (start, end) in zip(words, spans):
        if word != wanted and word != wanted + "th":
            continue
        first = re.split(r"\W+", text[start:end])[0].lower()  # "thirty-four", not "34" or "XXXIV"
        if first in CARDINALS or (word != wanted and first in ORDINALS and first != "second"):
            return start, end
    return None


# a suffix that names a place's people or language, or a field's practitioners; what people write for a key
# that names the place or the field ("Colombian" for "Colombia", "Japanese" for "Japan", "mathematicians")
DERIVING_SUFFIXES = frozenset({"n", "an", "ian", "ese", "ish"})
MIN_DERIVED_FROM = 5  # letters: shorter words grow into other words ("Chin" -> "Chinese", "Roma" -> "Roman")


def find_derived(key: str, text: str) -> tuple[int, int] | None:
    """Span of the first word of `text` derived from the one-word `key` by one of DERIVING_SUFFIXES
    ("Colombian" for "Colombia"), or None. Plurals fold first ("mathematicians" is "mathematician")."""
    target = _tokens(key)[0]
    if len(target) != 1 or len(target[0]) < MIN_DERIVED_FROM or not target[0].isalpha():
        return None
    stem = target[0]
    if stem[:3] not in squashed(text):
        return None  # every word built on the key starts with its letters (quick refusal)
    words, spans, _ = _tokens(text)
    for word, span in zip(words, spans):
        if len(word) > len(stem) and word.startswith(stem) and word[len(stem) :] in DERIVING_SUFFIXES:
            return span
    return None


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
    if kind == MatchKind.DATE:
        return find_date(needle, text)
    if kind in (MatchKind.LEAD_TERM, MatchKind.LEAD_PHRASE):
        find = find_stem if kind == MatchKind.LEAD_TERM else find_phrase
        for start, end in opening_statements(text):
            found = find(needle, text[start:end])
            if found is not None:
                return start + found[0], start + found[1]
        return None
    if kind == MatchKind.TERM:
        return find_stem(needle, text)
    if kind == MatchKind.POLARITY:
        m = re.search(rf"\b{re.escape(needle)}\b", text, re.IGNORECASE)
        return (m.start(), m.end()) if m else None
    return find_phrase(needle, text)
