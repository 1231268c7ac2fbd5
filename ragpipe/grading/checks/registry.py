"""The checks in the order `grade()` runs them; the first finding with a verdict decides.

The order is the grader's precedence: a decline decides before anything is read as an answer; a
wrong money figure, a forbidden claim or the opposite yes/no make an answer wrong whatever needles it
carries; the needle count decides partial or wrong; an answer that passes all of them but cites no
golden document is partial.
"""

from __future__ import annotations

from ragpipe.grading.checks import citations, decline, forbidden, money_guard, needles, polarity
from ragpipe.grading.checks.view import Check

CHECKS: tuple[Check, ...] = (
    decline.CHECK,
    money_guard.CHECK,
    forbidden.CHECK,
    polarity.CHECK,
    needles.CHECK,
    citations.CHECK,
)
CHECK_IDS = tuple(c.id for c in CHECKS)


def checks_for(kind: str) -> tuple[Check, ...]:
    """A negative question is graded by the decline check alone; answerable and ambiguous ones by all."""
    return CHECKS[:1] if kind == "negative" else CHECKS
