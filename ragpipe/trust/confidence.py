"""The confidence model: how likely a person is to class an answer the way its verdict does.

A logistic regression over a verdict's evidence (trust/evidence.py), its weights a small file beside
rules.yaml (grading/confidence.json) that is part of the grader version. Scoring is a dot product over
the named features an answer has: no fitting library at grading time, and the same file gives the
same confidences on every machine (rounded to four places, so a last-bit difference in a sum never
moves one). `why` names the features that moved a confidence most, with their pull in log-odds.

The file also keeps its calibration: for each labelled set it was trained on, how many verdicts had
each (out-of-fold) confidence and how many of them people disagree with. The firm threshold for any
alpha and delta is chosen from those counts pooled (trust/bound.py); what it does on each set, and
the threshold the set's own labels would give, are reported beside it.
"""

from __future__ import annotations

import heapq
import math
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from ragpipe.trust.bound import Bound, firm_threshold


class LabelledSet(BaseModel):
    """One set the model was trained on (its data card)."""

    model_config = ConfigDict(extra="forbid")
    name: str
    source: str  # where it is read from, relative to the shared data folder
    answers: int
    people_disagree: float  # with the grader's verdicts, correct vs not (declined vs not where declining can be right)


class ConfidenceModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    family: str = "logistic regression"
    weights: dict[str, float]
    intercept: float
    trained: str  # the date it was fitted
    sets: list[LabelledSet]
    # per set: [confidence, verdicts, of them people disagree with], out of fold
    calibration: dict[str, list[tuple[float, int, int]]]
    settings: dict[str, float | int | str] = Field(default_factory=dict)

    def log_odds(self, features: dict[str, float]) -> float:
        w = self.weights
        return self.intercept + sum(w.get(k, 0.0) * v for k, v in features.items())

    def confidence(self, features: dict[str, float]) -> float:
        z = self.log_odds(features)
        return round(1.0 / (1.0 + math.exp(-z)), 4) if z > -700 else 0.0

    def why(self, features: dict[str, float], most: int = 3) -> tuple[str, ...]:
        """The features that pulled the confidence furthest from the model's base rate, strongest first."""
        w = self.weights
        pulls = [(-abs(p), k, p) for k, v in features.items() if abs(p := w.get(k, 0.0) * v) >= 0.005]
        return tuple(f"{k} {p:+.2f}" for _, k, p in heapq.nsmallest(most, pulls))

    def bound(self, alpha: float, delta: float) -> ShippedBound:
        """The firm threshold for `alpha` and `delta`, from the calibration counts."""
        return shipped_bound(self.calibration, alpha, delta)


class ShippedBound(BaseModel):
    """The firm threshold for one alpha and delta, chosen on every calibration verdict as one sample, and
    what it does on each set: its firm share and disagreement there, and the set's own threshold."""

    threshold: float
    alpha: float
    delta: float
    labels: int
    firm_share: float
    per_set: dict[str, dict]


def _at(rows: list, threshold: float) -> dict:
    answers = sum(n for _, n, _ in rows)
    firm = sum(n for c, n, _ in rows if c >= threshold)
    off = sum(d for c, _, d in rows if c >= threshold)
    return {
        "answers": answers,
        "firm_share": round(firm / answers, 4) if answers else 0.0,
        "firm_disagree": round(off / firm, 4) if firm else None,
    }


def _threshold(rows: list, alpha: float, delta: float) -> Bound:
    return firm_threshold([c for c, _, _ in rows], [d for _, _, d in rows], alpha, delta, [n for _, n, _ in rows])


def shipped_bound(calibration: dict[str, list], alpha: float, delta: float) -> ShippedBound:
    """The threshold over every set's counts pooled (the guarantee is for verdicts drawn like the pooled
    labelled ones), and per set what it does there beside the set's own threshold."""
    pooled = _threshold([r for rows in calibration.values() for r in rows], alpha, delta)
    per_set = {
        name: {**_at(rows, pooled.threshold), "own_threshold": round(_threshold(rows, alpha, delta).threshold, 4)}
        for name, rows in sorted(calibration.items())
    }
    return ShippedBound(
        threshold=pooled.threshold,
        alpha=alpha,
        delta=delta,
        labels=pooled.labels,
        firm_share=round(pooled.firm / pooled.labels, 4) if pooled.labels else 0.0,
        per_set=per_set,
    )


def load_model(path: Path) -> ConfidenceModel:
    """The model file at `path`."""
    return ConfidenceModel.model_validate_json(Path(path).read_bytes())
