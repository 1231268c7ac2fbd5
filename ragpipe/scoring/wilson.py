"""The Wilson 95% interval of a share: the leaderboard's per system and the scorecard slices' per slice,
one computation for both.

The numbers of scipy's `binomtest(k, n).proportion_ci(method="wilson")` (Newcombe 1998, no continuity
correction), operation for operation, so they agree to the last bit (tests/unit/scoring/test_wilson.py compares them):
written out because importing scipy.stats cost every scorecard, so every `ragpipe run` and regrade,
0.5 to 0.9 s of a second core for a formula of four lines.
"""

from __future__ import annotations

from math import sqrt

Z_95 = 1.959963984540054  # scipy.special.ndtri(0.975), the two-sided 95% normal quantile (the test checks it)


def wilson(successes: int, n: int) -> tuple[float | None, float | None]:
    """(low, high) of successes / n, as fractions; (None, None) when n is 0."""
    if n == 0:
        return None, None
    p, z = successes / n, Z_95
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * sqrt(4 * n * p * (1 - p) + z**2)
    low = 0.0 if successes == 0 else center - delta
    high = 1.0 if successes == n else center + delta
    return float(low), float(high)
