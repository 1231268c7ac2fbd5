"""Does an answer decline? Whole-phrase matches from the rules' decline list.

Phrases match on word boundaries, case-insensitively, so "not found" never
fires inside "not foundational". Exclusions (e.g. "not covered") are never
declines, whatever the list says.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragpipe.grading.rules import Rules


@lru_cache(maxsize=64)
def _pattern(phrases: tuple[str, ...]) -> re.Pattern[str]:
    alts = sorted((re.escape(p.lower()).replace(r"\ ", r"\s+") for p in phrases), key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(alts) + r")(?!\w)")


def _normalize(text: str) -> str:
    return text.lower().replace("\u2019", "'")


def decline_spans(answer: str, rules: Rules) -> list[tuple[int, int, str]]:
    """(start, end, phrase) of every decline phrase in `answer`."""
    phrases = tuple(p for p in rules.declines.phrases if p.lower() not in rules.excluded)
    if not phrases:
        return []
    return [(m.start(), m.end(), m.group(0)) for m in _pattern(phrases).finditer(_normalize(answer))]


def is_decline(answer: str, rules: Rules) -> bool:
    return bool(decline_spans(answer, rules))
