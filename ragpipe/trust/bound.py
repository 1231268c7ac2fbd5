"""Firm by a bound: the confidence above which people disagree with at most `alpha` of the verdicts,
with probability at least 1 - `delta`, for verdicts drawn like the labelled ones.

Learn-then-Test with fixed-sequence testing (Angelopoulos et al. 2021; as in "Trust or Escalate",
Jung et al., ICLR 2025). The candidate thresholds are the confidences at which the most confident
1/20, 2/20, ... of the labelled verdicts are firm; each is a null hypothesis "people disagree with more
than alpha of the verdicts at or above it", tested in that order, most confident first, by its binomial
p-value P(Binomial(n, alpha) <= disagreements among those n). Testing stops at the first one not
rejected at `delta`; the last rejected is the threshold. The order depends on the confidences alone,
never on the labels, which is what lets one level `delta` cover the whole sequence. A candidate with
so few verdicts that no test could reject it ((1 - alpha)^n > delta) is passed over: skipping it
changes no outcome. With none rejected, nothing is firm (threshold above 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

STEPS = 20
NOTHING_FIRM = 1.01  # no confidence reaches it


@dataclass(frozen=True)
class Bound:
    threshold: float  # firm: confidence >= threshold
    alpha: float
    delta: float
    labels: int  # labelled verdicts the threshold was chosen on
    firm: int  # of them, how many it makes firm
    disagree: int  # of those, how many people disagree with

    @property
    def holds(self) -> bool:
        return self.threshold <= 1.0

    def as_dict(self) -> dict:
        return {
            "threshold": round(self.threshold, 4),
            "alpha": self.alpha,
            "delta": self.delta,
            "labels": self.labels,
            "firm": self.firm,
            "firm_share": round(self.firm / self.labels, 4) if self.labels else 0.0,
            "disagree": self.disagree,
        }


def binomial_p_value(disagree: int, n: int, alpha: float) -> float:
    """P(Binomial(n, alpha) <= disagree): how likely so few disagreements are if the true rate were alpha.
    Summed term by term in logs (grading computes the threshold and never loads scipy for it)."""
    if disagree >= n:
        return 1.0
    log_a, log_b = math.log(alpha), math.log1p(-alpha)
    total = 0.0
    for i in range(disagree + 1):
        total += math.exp(
            math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_a + (n - i) * log_b
        )
    return min(1.0, total)


def firm_threshold(confidence, disagree, alpha: float = 0.01, delta: float = 0.1, weights=None) -> Bound:
    """The bound's threshold for rows of verdicts with `confidence`, each row `weights` verdicts (calibration
    counts; default one each) of which people `disagree` with that many (1/0 for a row of one)."""
    conf = np.asarray(confidence, dtype=float)
    bad = np.asarray(disagree, dtype=float)
    w = np.ones(len(conf)) if weights is None else np.asarray(weights, dtype=float)
    order = np.argsort(-conf, kind="stable")
    conf, bad, w = conf[order], bad[order], w[order]
    counted, errors = np.cumsum(w), np.cumsum(bad)
    total = int(counted[-1]) if len(counted) else 0
    chosen = Bound(NOTHING_FIRM, alpha, delta, total, 0, 0)
    for step in range(1, STEPS + 1):
        want = total * step / STEPS
        if want == 0 or (1 - alpha) ** want > delta:
            continue
        i = int(np.searchsorted(counted, want - 1e-9))  # the row that brings the count to `want`
        t = conf[i]
        last = int(np.searchsorted(-conf, -t, side="right")) - 1  # every row at that confidence too
        n, k = int(counted[last]), int(errors[last])
        if binomial_p_value(k, n, alpha) > delta:
            break
        chosen = Bound(float(t), alpha, delta, total, n, k)
    return chosen
