"""How well confidence orders and calibrates verdicts on a labelled set, and the firm bound there.

`ragpipe agreement`'s `risk_coverage`, `aurc`, `ece` and `trust`: the risk-coverage curve of the
grades' confidences against people's labels (trust/risk_coverage.py), and what firm means on the set:
its firm share and people's disagreement with the firm verdicts under the threshold the grades were
given (the shipped calibration's), beside the threshold these labels alone give by the bound
(trust/bound.py) — a team's own bound from its own labels. On a set the model was fitted on, the
labels' own figures are in-sample, and read as such.
"""

from __future__ import annotations

import pandas as pd

from ragpipe.grader_agreement.trust_sets import agrees
from ragpipe.trust.bound import firm_threshold
from ragpipe.trust.risk_coverage import risk_coverage


def trust_report(frame: pd.DataFrame, alpha: float = 0.01, delta: float = 0.1) -> dict:
    """For labelled grade rows with `confidence`, `firm`, `kind`, `human` and `grader` (the labels' scale)."""
    rated = frame[frame["confidence"].notna()] if "confidence" in frame else frame.iloc[0:0]
    if rated.empty:
        return {}
    agree = [int(agrees(k, h, g)) for k, h, g in zip(rated["kind"], rated["human"], rated["grader"])]
    curve = risk_coverage(rated["confidence"].astype(float), agree)
    firm = rated["firm"].astype(bool).to_numpy()
    held = sum(a for a, f in zip(agree, firm) if f)
    share = float(frame["firm"].astype(bool).mean())  # of every answer: a judged one has no confidence, and is not firm
    own = firm_threshold(rated["confidence"].astype(float), [1 - a for a in agree], alpha, delta)
    return {
        "risk_coverage": {"coverage": curve["coverage"], "risk": curve["risk"]},
        "aurc": curve["aurc"],
        "ece": curve["ece"],
        "trust": {
            "alpha": alpha,
            "delta": delta,
            "labels": len(rated),
            "firm_share": round(share, 4),
            "firm_disagree": round(1 - held / int(firm.sum()), 4) if firm.any() else None,
            "own_bound": own.as_dict() if own.holds else None,
            "by_file": _by_file(rated, agree) if "file" in rated else {},
        },
    }


def _by_file(rated: pd.DataFrame, agree: list[int]) -> dict:
    """Each labelled file's firm share and people's disagreement with its firm verdicts: "firm means
    nobody need look" must hold for every system, not on average."""
    out = {}
    frame = rated.assign(_agree=agree)
    for name, g in frame.groupby("file", sort=True):
        firm = g["firm"].astype(bool)
        out[str(name)] = {
            "answers": len(g),
            "firm_share": round(float(firm.mean()), 4),
            "firm_disagree": round(float(1 - g.loc[firm, "_agree"].mean()), 4) if firm.any() else None,
        }
    return out
