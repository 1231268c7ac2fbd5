"""Find a needle in an answer: figures by value as whole tokens, words as phrases.

`$20.00` is never found inside `-$10,020.00`, `842` never inside `8420`, and
"flood" never inside "floodplain"; `$1,577 million` is found as `$1.577 billion`.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from ragpipe.figures import Figure, find_figures


@lru_cache(maxsize=4096)
def figure_needle(needle: str) -> Figure | None:
    """The figure a needle denotes when the needle is nothing but one figure."""
    figures = find_figures(needle.strip())
    if len(figures) == 1 and figures[0].text == needle.strip():
        return figures[0]
    return None


def find_needle(needle: str, answer: str, figures: list[Figure], tolerance: Decimal = Decimal(0)) -> tuple[int, int] | None:
    """Span of `needle` in `answer` (whose figures are `figures`), or None."""
    fig = figure_needle(needle)
    if fig is not None:
        for other in figures:
            if fig.matches(other, tolerance):
                return other.start, other.end
        return None
    words = [re.escape(w) for w in needle.lower().split()]
    if not words:
        return None
    m = re.search(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", answer.lower())
    return (m.start(), m.end()) if m else None
