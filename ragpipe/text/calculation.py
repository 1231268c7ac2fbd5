"""The figure an answer's written calculation concludes in.

"Receivables of $2,318.4 million less a $41.2 million allowance: net
receivables were $2,277.2 million." The first figure is an input, the last the
result: the answer asserts the last. Read only from an explicit calculation:
two earlier figures joined by an operator word ("less", "minus", "plus", "-",
"+", or a sign the second is written with) whose sum or difference is the last
figure at its precision. "They owe $44,322. Total income was $120,000 and tax
withheld $75,678" holds the same arithmetic but no operator between the
figures: it opens with its answer.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right, insort
from decimal import Decimal

from ragpipe.text.figures import Figure

_OPERATOR = re.compile(r"\b(?:less|minus|plus|subtract(?:ing)?|add(?:ing)?)\b|(?<!\w)[-+\u2212](?!\w)", re.IGNORECASE)


def _joined(text: str, a: Figure, b: Figure) -> bool:
    """Does the text join `a` to the later `b` with an operator ("- $13,997 million": b's own sign)?"""
    return bool(_OPERATOR.search(text[a.end : b.start])) or b.text[:1] in "-+\u2212"


def concludes_calculation(text: str, figures: list[Figure]) -> bool:
    """Does the last of `figures` (in text order) result from two earlier ones the text joins with an
    operator word, as their sum or difference, at the precision the last is written with?

    The arithmetic is looked up before the text is read: for each figure b, the earlier a that would
    make a - b, a + b or b - a the last are found by value in a sorted list, so an answer that dumps
    hundreds of figures costs n log n lookups, not a text scan per pair."""
    if len(figures) < 3:
        return False
    last = figures[-1]
    half = Decimal(5).scaleb(-last.decimals - 1)
    earlier: list[tuple[Decimal, int]] = []  # (value, position) of the figures before b, by value
    for j, b in enumerate(figures[:-1]):
        for a_value in (last.value + b.value, last.value - b.value, b.value - last.value):
            lo = bisect_left(earlier, (a_value - half, -1))
            hi = bisect_right(earlier, (a_value + half, len(figures)))
            if any(_joined(text, figures[i], b) for _, i in earlier[lo:hi]):
                return True
        insort(earlier, (b.value, j))
    return False
