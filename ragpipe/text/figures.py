"""Find numbers in text and compare them by value, never as substrings.

A figure is a whole token: `$20.00` is not found inside `-$10,020.00`, and
`$1,577 million`, `$1.577 billion` and `1577000000` are the same value.
Accounting negatives `(1,577)` and leading minus signs are negative values.
An ordinal is its number ("34th" is 34) and a superscript footnote marker is
not part of it ("1930²" is 1930).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import lru_cache

from ragpipe.text.dates import is_year

SCALES = {
    "thousand": Decimal(10) ** 3,
    "k": Decimal(10) ** 3,
    "million": Decimal(10) ** 6,
    "mn": Decimal(10) ** 6,
    "m": Decimal(10) ** 6,
    "billion": Decimal(10) ** 9,
    "bn": Decimal(10) ** 9,
    "b": Decimal(10) ** 9,
    "trillion": Decimal(10) ** 12,
}

MIN_SIGNIFICANT = 3  # a coarser answer still has to agree with the key to three significant figures
_DIGIT = re.compile(r"\d")
_FIGURE = re.compile(
    r"""
    (?=[-\u2212(\$UuEe\u20ac\u00a3\d.])             # a sign, currency or digit first: elsewhere it fails at once
    (?<![\w.,$])                                   # a whole token: nothing number-like before
    (?P<neg>-|\u2212|\()?                          # minus sign or accounting parenthesis
    \s?
    (?P<cur>\$|US\$|USD\s?|EUR\s?|\u20ac|\u00a3)?  # currency marker
    \s?
    (?P<neg2>-|\u2212)?                            # $-12 style
    (?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)
    (?P<close>\))?
    (?:\s?(?P<pct>%|percent\b))?
    (?:\s?(?P<scale>thousand|million|billion|trillion|mn|bn|[kmb])\b)?
    (?:
      (?P<ord>st|nd|rd|th)(?!\w)                   # an ordinal is its number: "the 34th-largest" is 34
      | (?P<note>[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]+)(?!\w)  # a superscript footnote marker: "1930\u00b2"
      | (?![\w]|[.,]\d|-[A-Za-z])                  # or nothing number-like after ("10-K" is a name)
    )
    """,
    re.IGNORECASE | re.VERBOSE,
)


@dataclass(frozen=True)
class Figure:
    """A number found in text, with where it was found."""

    text: str
    value: Decimal
    decimals: int  # digits after the point in the text, after scaling: the precision written
    is_money: bool
    is_percent: bool
    start: int
    end: int
    scale_word: str | None = None

    @property
    def in_year_range(self) -> bool:
        """A whole number from 1900 to 2100: read as a year where that matters (it dates, it does not state)."""
        return self.decimals == 0 and is_year(self.value)

    def scaled(self, factor: Decimal) -> Figure:
        """The same figure read in a unit of `factor` (a bare `1,577` in "USD millions")."""
        return replace(self, value=self.value * factor, decimals=self.decimals - factor.adjusted())

    def magnitude(self) -> Figure:
        return self if self.value >= 0 else replace(self, value=-self.value)

    def mantissa(self) -> Figure:
        """The number as written before its scale word: `$411 million` -> 411."""
        if not self.scale_word:
            return self
        factor = SCALES[self.scale_word]
        return replace(self, value=self.value / factor, decimals=self.decimals + factor.adjusted(), scale_word=None)

    def matches(self, other: Figure, relative_tolerance: Decimal = Decimal(0)) -> bool:
        """Same value at the coarser of the two precisions (self is the key): an answer written more
        finely is rounded to the key ($44,321.60 is $44,322); one written more coarsely is compared at
        its own precision ($11.6 billion is $11,588 million), but never looser than three significant
        figures of the key ($12 billion is not $11,588 million, $43 is not $42.99)."""
        if self.is_percent != other.is_percent:
            return False
        if same_value(self.value, self.decimals, other.value, other.decimals):
            return True
        if relative_tolerance and self.value != 0:
            return abs(other.value - self.value) <= abs(self.value) * relative_tolerance
        return False


def same_value(key: Decimal, key_decimals: int, other: Decimal, other_decimals: int) -> bool:
    """`Figure.matches` on bare values: equal at the coarser precision, never below three significant figures."""
    if other_decimals < key_decimals and key != 0 and other_decimals >= MIN_SIGNIFICANT - 1 - key.adjusted():
        # coarser, yet still three significant figures of the key: both at the answer's precision
        return _rounded(other, other_decimals) == _rounded(key, other_decimals)
    return _rounded(other, key_decimals) == key  # the key is written at its own precision


def _rounded(value: Decimal, decimals: int) -> Decimal:
    """Half-up, as money is rounded (Decimal defaults to half-even: 0.45 would round to 0.4)."""
    if value.adjusted() >= 28:  # beyond Decimal's working precision: compare as written
        return value
    return value.quantize(_quantum(decimals), rounding=ROUND_HALF_UP)


@lru_cache(maxsize=64)
def _quantum(decimals: int) -> Decimal:
    return Decimal(1).scaleb(-decimals)


def _scale_of(word: str | None, is_money: bool, attached: bool) -> Decimal:
    """A scale word multiplies; a one-letter suffix only on money ("$5m") or as
    an attached upper-case B or K ("7B" parameters, "40K" tokens): "5 m" is five
    metres and "3M" is a company."""
    if not word:
        return Decimal(1)
    if len(word) == 1 and not (is_money or (attached and word in ("B", "K"))):
        return Decimal(1)
    return SCALES[word.lower()]


_GROUPS = ("neg", "cur", "neg2", "num", "close", "pct", "scale", "ord", "note")


def find_figures(text: str) -> list[Figure]:
    """Every number in `text` (money, percentages, plain numbers) with its span."""
    out: list[Figure] = []
    if not _DIGIT.search(text):
        return out  # no digit, no figure: skip the (slow, position-by-position) figure pattern
    for m in _FIGURE.finditer(text):
        # every group in one call: a figure-rich answer read them group by group a dozen times each
        neg, cur, neg2, num, close, pct, scale_word, ordinal, note = m.group(*_GROUPS)
        try:
            raw = Decimal(num.replace(",", ""))
        except InvalidOperation:  # pragma: no cover - the regex admits only digits
            continue
        is_money = bool(cur)
        paren = neg == "(" and close == ")"
        negative = paren or (neg in ("-", "\u2212")) or bool(neg2)
        if neg == "(" and not paren:
            negative = False
        attached = scale_word is not None and m.start("scale") == m.end("num")
        scale = _scale_of(scale_word, is_money, attached)
        decimals = max(0, -int(raw.as_tuple().exponent)) - (scale.adjusted())
        value = raw * scale
        if negative:
            value = -value
        start, end = m.start(), m.start("ord") if ordinal else m.start("note") if note else m.end()
        if neg == "(" and not paren:
            start += 1
        if close and not paren:
            end -= 1
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        out.append(
            Figure(
                text=text[start:end],
                value=value,
                decimals=decimals,
                is_money=is_money,
                is_percent=bool(pct),
                start=start,
                end=end,
                scale_word=scale_word.lower() if scale != 1 else None,
            )
        )
    return out


def parse_figure(text: str) -> Figure:
    """The single figure a key like `$44,322` or `-$10,020.00` denotes."""
    figures = find_figures(text.strip())
    if len(figures) != 1:
        raise ValueError(f"expected exactly one figure in {text!r}, found {len(figures)}")
    return figures[0]


_QUESTION_UNIT = re.compile(r"\b(thousand|million|billion)s\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def question_scale(question: str) -> Decimal:
    """The unit a question asks its amounts in ("in USD millions" -> 10**6), else 1.

    Only the plural unit form counts ("millions", "USD billions"): that is how
    a question declares its unit, while "$5 million" in a question is a figure.
    """
    m = _QUESTION_UNIT.search(question)
    return SCALES[m.group(1).lower()] if m else Decimal(1)
