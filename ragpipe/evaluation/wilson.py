"""The Wilson 95% interval of a share (scipy's `binomtest(...).proportion_ci`): the leaderboard's per
system and the scorecard slices' per slice, one computation for both."""

from __future__ import annotations


def wilson(successes: int, n: int) -> tuple[float | None, float | None]:
    """(low, high) of successes / n, as fractions; (None, None) when n is 0."""
    if n == 0:
        return None, None
    from scipy.stats import binomtest  # here, not at import: scipy.stats costs every Dagster process 0.5 s

    ci = binomtest(successes, n).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)
