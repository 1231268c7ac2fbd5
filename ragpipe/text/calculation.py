"""The figure an answer's written calculation concludes in.

"Receivables of $2,318.4 million less a $41.2 million allowance: net
receivables were $2,277.2 million." The first figure is an input, the last the
result: the answer asserts the last. Read only from an explicit calculation:
two earlier figures joined by an operator word ("less", "minus", "plus", "-",
"+", or a sign the second is written with) whose sum or difference is the last
figure at its precision. "They owe
$44,322. Total income was $120,000 and tax withheld $75,678" holds the same
arithmetic but no operator between the figures: it opens with its answer.
"""

from __future__ import annotations

import re
from decimal import Decimal

from ragpipe.text.figures import Figure

_OPERATOR = re.compile(r"\b(?:less|minus|plus|subtract(?:ing)?|add(?:ing)?)\b|(?<!\w)[-+\u2212](?!\w)", re.IGNORECASE)


def _equal(value: Decimal, figure: Figure) -> bool:
    """`value` is `figure` at the precision the figure is written with."""
    return abs(value - figure.value) <= Decimal(5).scaleb(-figure.decimals - 1)


def concludes_calculation(text: str, figures: list[Figure]) -> bool:
    """Does the last of `figures` (in text order) result from two earlier ones the text joins with an
    operator word, as their sum or difference?"""
    if len(figures) < 3:
        return False
    last = figures[-1]
    for i, a in enumerate(figures[:-1]):
        for b in figures[i + 1 : -1]:
            if not (_OPERATOR.search(text[a.end : b.start]) or b.text[:1] in "-+\u2212"):  # "- $13,997 million"
                continue
            if any(_equal(v, last) for v in (a.value - b.value, a.value + b.value, b.value - a.value)):
                return True
    return False
