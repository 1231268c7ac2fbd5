"""Citation markers in an answer ("[1]", "[2, 3]"): blanked before anything reads the answer, so
their digits are never figures, and offsets into the answer stay valid."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=8)
def _marker(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def blank_citations(answer: str, marker_pattern: str) -> str:
    """`answer` with every match of `marker_pattern` replaced by as many spaces."""
    return _marker(marker_pattern).sub(lambda m: " " * len(m.group(0)), answer)
