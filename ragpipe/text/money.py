"""Money keys: how a money question is told, how its key is read, and how an answer's figure is
compared with it. The money guard and the needle count both compare through here (and the review
highlights with it), so how money is compared is changed in this one file (figures are parsed in
text/figures.py; the rules that tune it are the money guard's `money` section).

A figure matches the key when, rounded to the precision the key is written with ($44,322 -> whole
dollars, $42.99 -> cents), it equals the key (`money.relative_tolerance` widens that). A bare key in
a question that declares its unit ("in USD millions") is read in that unit.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from functools import lru_cache

from ragpipe.text.calculation import concludes_calculation
from ragpipe.text.figures import Figure, find_figures, parse_figure, question_scale
from ragpipe.text.sentences import sentences


@lru_cache(maxsize=4096)  # a question is asked of many answers
def gold_money_key(gold: str) -> str | None:
    """The money key a gold answer gives by itself: its one money figure, when that is the only figure it
    states besides years and it stands in the gold's first sentence ("$1,850", "$1,850 per month", "The
    deposit is $3,700."). A gold of two figures, of a money figure beside a count or a rate, or one that
    opens with something else ("Yes. ... $1.6 billion", "Corporate. Its net revenue was ...": the amount
    supports the answer, it is not the answer) names no key."""
    figures = find_figures(gold)
    money = [f for f in figures if f.is_money]
    if len(money) != 1 or any(not f.is_money and not f.in_year_range for f in figures):
        return None
    first = sentences(gold)[0] if gold.strip() else (0, 0)
    return money[0].text if first[0] <= money[0].start < first[1] else None


# what a question asks first: an amount ("what", "how much") rather than a yes or no, a choice or a name
_ASKS_FIRST = re.compile(
    r"\b(what|which|who|whom|whose|where|when|why|how much|how many|by how much|how)\b|^\s*(?:is|are|was|were|do|does"
    r"|did|has|have|had|can|could|will|would|should)\b",
    re.IGNORECASE,
)
_CHANGE = re.compile(r"\b(?:increase|decrease|rise|rose|fall|fell|grow|grew|change|differ|difference)", re.IGNORECASE)


@lru_cache(maxsize=4096)
def asks_an_amount(question: str) -> bool:
    """The question asks what an amount is ("What is the monthly rent?", "How much is the cleaning fee?"):
    not a yes or no ("Does ... have positive working capital?"), a choice or a name ("Which segment ..."),
    nor by how much something changed (its answer restates the amounts it changed between)."""
    m = _ASKS_FIRST.search(question)
    if m is None or m.group(1) is None or m.group(1).lower() not in ("what", "how much"):
        return False
    return _CHANGE.search(question) is None


def key_of(money_key: str | None, gold: str, kind: str, question: str) -> str | None:
    """A question's money key: the one its author wrote (`money_key`), else the one its gold gives when the
    question asks what an amount is; none on a negative question (nothing in the documents answers it)."""
    if money_key is not None:
        return money_key
    if kind == "negative" or not asks_an_amount(question):
        return None
    return gold_money_key(gold)


@lru_cache(maxsize=4096)  # a question is asked of many answers
def is_money_question(text: str, kind: str, key: str | None, gold: str, patterns: tuple[str, ...]) -> bool:
    """A question (its `text`, `kind`, money `key` and `gold` answer) with a money key, or whose wording
    (`patterns`) asks for money that its gold gives."""
    if key is not None:
        return parse_figure(key).is_money
    text = text.lower()
    return (
        any(re.search(p, text) for p in patterns) and kind != "negative" and any(f.is_money for f in find_figures(gold))
    )


@lru_cache(maxsize=4096)
def money_key_value(key_text: str, question_text: str) -> Figure:
    key = parse_figure(key_text)
    scale = question_scale(question_text)
    if scale == 1 or key.scale_word is not None:
        return key
    # a key in the question's unit ("$382.00" in USD millions) is padded to two
    # decimals by convention: its trailing zeros are format, not precision
    exponent = key.value.normalize().as_tuple().exponent
    return replace(key, decimals=max(0, -int(exponent))).scaled(scale)


def matches_key(key: Figure, fig: Figure, scale: Decimal, tol: Decimal) -> bool:
    """An answer figure is the key as written, or, with no unit word, in the question's unit."""
    return key.matches(fig, tol) or (scale != 1 and fig.scale_word is None and key.matches(fig.scaled(scale), tol))


def asserted_money(text: str, money: list[Figure]) -> list[Figure]:
    """The money figures an answer asserts: the one it opens with ("They owe $44,322. Total income was
    ...") and the one it ends on ("... - $13,997 million = $5,818 million"); the others are inputs and
    context it mentions. When the answer writes out a calculation that ends on its result, the figure it
    opens with is an input (text/calculation.py)."""
    return money[-1:] if concludes_calculation(text, money) else money[:1] + money[-1:]
