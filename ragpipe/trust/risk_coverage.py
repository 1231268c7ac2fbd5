"""How well confidence orders verdicts: the risk-coverage curve, its area, and calibration error.

Risk at coverage k/n is the share of people's disagreements among the k most confident verdicts; the
area under the curve (AURC) is its mean over every k (lower is better: a perfect order puts every
disagreement last). The expected calibration error (ECE) is the answer-weighted gap between mean
confidence and the share people agree with, over ten bins of confidence of equal width.
"""

from __future__ import annotations

import numpy as np

COVERAGES = tuple(round(c / 10, 1) for c in range(1, 11))  # the curve's points as reported


def risk_coverage(confidence, agree) -> dict:
    """{"coverage": [...], "risk": [...], "aurc": a, "ece": e} for verdicts with `confidence` and
    whether people `agree` with each (1/0). Ties in confidence are taken in their given order."""
    conf, ok = np.asarray(confidence, dtype=float), np.asarray(agree, dtype=int)
    n = len(conf)
    if n == 0:
        return {"coverage": [], "risk": [], "aurc": None, "ece": None}
    order = np.argsort(-conf, kind="stable")
    risk = np.cumsum(1 - ok[order]) / np.arange(1, n + 1)
    points = [max(1, int(round(c * n))) for c in COVERAGES]
    return {
        "coverage": list(COVERAGES),
        "risk": [round(float(risk[k - 1]), 4) for k in points],
        "aurc": round(float(risk.mean()), 4),
        "ece": round(expected_calibration_error(conf, ok), 4),
    }


def expected_calibration_error(confidence, agree, bins: int = 10) -> float:
    conf, ok = np.asarray(confidence, dtype=float), np.asarray(agree, dtype=float)
    if len(conf) == 0:
        return 0.0
    index = np.minimum((conf * bins).astype(int), bins - 1)
    gap = 0.0
    for b in range(bins):
        inside = index == b
        if inside.any():
            gap += inside.sum() * abs(conf[inside].mean() - ok[inside].mean())
    return float(gap / len(conf))
