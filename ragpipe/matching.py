"""Find a needle in a text: figures by value as whole tokens, names as whole
phrases, single words by stem.

`$20.00` is never found inside `-$10,020.00`, `842` never inside `8420`, and
"flood" never inside "floodplain"; `$1,577 million` is found as `$1.577
billion`, and the term "reduces" is found as "reduced". Needle mining and the
grader both use these functions, so "kept because the gold text has it" and
"credited because the answer has it" mean the same thing.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from ragpipe.figures import Figure, find_figures
from ragpipe.tokenize import tokenize

_WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019-][A-Za-z0-9]+)*")


@lru_cache(maxsize=4096)
def figure_needle(needle: str) -> Figure | None:
    """The figure a needle denotes when the needle is nothing but one figure."""
    figures = find_figures(needle.strip())
    if len(figures) == 1 and figures[0].text == needle.strip():
        return figures[0]
    return None


@lru_cache(maxsize=4096)
def _phrase(phrase: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in phrase.split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.IGNORECASE)


def find_phrase(phrase: str, text: str) -> tuple[int, int] | None:
    """Span of `phrase`: case-insensitive, whole words, any whitespace between words."""
    if not phrase.split():
        return None
    m = _phrase(phrase).search(text.replace("\u2019", "'"))
    return (m.start(), m.end()) if m else None


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
    target, seen = gold.magnitude(), other.magnitude()
    if target.matches(seen) or target.value == seen.value:
        return True
    return gold.scale_word is not None and other.scale_word is None and target.mantissa().matches(seen)


def find_figure_loosely(gold: Figure, figures: list[Figure]) -> tuple[int, int] | None:
    for other in figures:
        if same_figure_loosely(gold, other):
            return other.start, other.end
    return None


def find_needle(needle: str, text: str, figures: list[Figure], tolerance: Decimal = Decimal(0), kind: str = "phrase") -> tuple[int, int] | None:
    """Span of `needle` in `text` (whose figures are `figures`), or None.
    A needle that is one figure is matched by value (`kind="mined_figure"`: loosely,
    as needle mining found it); `kind="term"` (mined words and short phrases)
    matches by stems; anything else as a whole phrase."""
    fig = figure_needle(needle)
    if fig is not None:
        if kind == "mined_figure":
            return find_figure_loosely(fig, figures)
        return find_figure(fig, figures, tolerance)
    if kind in ("term", "phrase_stem"):
        return find_stem(needle, text)
    if kind == "polarity":
        m = re.search(rf"\b{re.escape(needle)}\b", text, re.IGNORECASE)
        return (m.start(), m.end()) if m else None
    return find_phrase(needle, text)
