"""Holm's step-down adjustment of p-values, for the leaderboard's "tied with the best".

The same numbers as statsmodels' `multipletests(p, method="holm")[1]` (tests/unit/scoring/test_holm.py compares them),
written out because that function calls `gc.collect()` on every call: 0.13 s in a Dagster process's heap
for a handful of p-values, a twentieth of a regrade.
"""

from __future__ import annotations

import numpy as np


def holm(pvalues) -> np.ndarray:
    """Adjusted p-values, in the order given: the k-th smallest times (m - k + 1), made non-decreasing in
    that order, capped at 1."""
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p)
    stepped = np.maximum.accumulate(p[order] * np.arange(len(p), 0, -1))
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted
