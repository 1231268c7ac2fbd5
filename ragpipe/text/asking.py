"""What a question asks for, by its shape: a number, or several things at once.

The grader reads these with the rest of what a question asks (grading/question_reading.py), once per
question; the patterns of a question that asks for a number are the rules' (`needles.figure_question_patterns`).
"""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=4096)
def asks_for_figure(question: str, patterns: tuple[str, ...]) -> bool:
    """Does the question ask for a number (`patterns`: rules.yaml needles.figure_question_patterns)?"""
    return bool(patterns) and re.search("|".join(f"(?:{p})" for p in patterns), question.lower()) is not None


_SEVERAL = re.compile(
    r"^\W*(?:which|what|who|name|list)\b[^?]*?\b(?:two|three|four|five|six|seven|eight|nine|ten|[2-9]|1\d|several|both)\b"
    r"|^\W*(?:what|who|which)\s+(?:are|were)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)  # a question is asked of many answers
def asks_for_several(question: str) -> bool:
    """The question asks for several things at once ("Which three suppliers ...", "Who were ...")."""
    return _SEVERAL.search(question) is not None
