"""A gold clause's core and its modifiers: what a why-question's gold answer says, and where or when.

"Because fuel surcharges doubled on its European routes" gives its reason in "fuel surcharges doubled";
"on its European routes" says where. An answer that shares only the where ("Because of port congestion on
its European routes") shares a place, not the reason. A modifier here is a phrase of place or time that
closes the gold or a clause of it: a preposition (on, in, at, across, during, ...), perhaps a determiner,
and at most four words, ending at a comma, a stop or the end. Everything else is the core.
"""

from __future__ import annotations

import re
from functools import lru_cache

_PREPOSITIONS = r"on|in|at|across|during|over|throughout|within|for|from|since|by|after|before|around"
_DETERMINERS = r"its|the|their|his|her|our|a|an|this|that|these|those|each|all|some|most"
_MODIFIER = re.compile(
    rf"\b(?:{_PREPOSITIONS})\s+(?:(?:{_DETERMINERS})\s+)?(?:[\w'\u2019-]+\s+){{0,3}}[\w'\u2019%-]+(?=\s*(?:[,.;:!?)]|$))",
    re.IGNORECASE,
)


@lru_cache(maxsize=16)
def _why(patterns: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"^\W*(?:" + "|".join(patterns) + ")", re.IGNORECASE) if patterns else re.compile("(?!)")


@lru_cache(maxsize=4096)
def asks_why(question: str, patterns: tuple[str, ...]) -> bool:
    """The question asks for a reason ("Why did ...", "What drove ...", "What were the reasons ..."): it
    opens with one of `patterns` (rules.yaml `reason.why_questions`: grading/readings/reason.py)."""
    return _why(patterns).search(question) is not None


@lru_cache(maxsize=4096)
def modifier_spans(gold: str) -> tuple[tuple[int, int], ...]:
    return tuple((m.start(), m.end()) for m in _MODIFIER.finditer(gold))


def only_in_modifiers(gold: str, needle: str) -> bool:
    """`needle` occurs in `gold`, and only inside its phrases of place or time."""
    spans = modifier_spans(gold)
    found = [m.start() for m in re.finditer(re.escape(needle), gold, re.IGNORECASE)]
    return bool(found) and all(any(s <= at < e for s, e in spans) for at in found)
