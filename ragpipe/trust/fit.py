"""Fit the confidence model on people's labels, and measure how well it transfers.

One row per labelled verdict: its `set` (which labelled set), `features` (trust/evidence.py) and
`agree` (1 where the person classed the answer as the verdict does). Each set weighs the same in the
fit, however many answers it has, so the largest set does not decide what evidence means. A rule's own
feature is kept only where the rule decided at least `min_support` of the training answers: a weight
learnt from a handful of answers would fit those answers, not the rule. The calibration counts are out
of fold (five folds, stratified by set and agreement, seeded): the threshold is chosen on confidences
the model gave answers it was not fitted on.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from ragpipe.trust.confidence import ConfidenceModel, LabelledSet
from ragpipe.trust.risk_coverage import risk_coverage

MIN_SUPPORT = 30
STRENGTH = 1.0  # scikit-learn's C: the inverse of the L2 penalty
FOLDS = 5


def _supported(frame: pd.DataFrame, min_support: int) -> pd.Series:
    counts = Counter(k for f in frame["features"] for k in f if k.startswith("rule="))
    rare = {k for k, c in counts.items() if c < min_support}
    return pd.Series([{k: v for k, v in f.items() if k not in rare} for f in frame["features"]], index=frame.index)


def fitted_weights(frame: pd.DataFrame, min_support: int) -> tuple[dict[str, float], float]:
    """(weight per feature, intercept) of the model fitted on `frame`'s rows."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    features = _supported(frame, min_support)
    weight = frame["set"].map(1.0 / frame["set"].value_counts()) * len(frame) / frame["set"].nunique()
    vectors = DictVectorizer(sparse=False, sort=True)
    x = vectors.fit_transform(list(features))
    model = LogisticRegression(C=STRENGTH, max_iter=5000)
    model.fit(x, frame["agree"].to_numpy(dtype=int), sample_weight=weight.to_numpy())
    names = vectors.get_feature_names_out()
    weights = {str(n): round(float(c), 6) for n, c in zip(names, model.coef_[0]) if abs(c) >= 1e-6}
    return weights, round(float(model.intercept_[0]), 6)


def scored(weights: dict[str, float], intercept: float, features) -> np.ndarray:
    """Each feature dict's confidence under `weights`, rounded as the shipped model rounds it."""
    z = np.array([intercept + sum(weights.get(k, 0.0) * v for k, v in f.items()) for f in features])
    return np.round(1.0 / (1.0 + np.exp(-z)), 4)


def out_of_fold(frame: pd.DataFrame, min_support: int = MIN_SUPPORT, folds: int = FOLDS) -> np.ndarray:
    """Each row's confidence from a model fitted on the other folds."""
    from sklearn.model_selection import StratifiedKFold

    conf = np.zeros(len(frame))
    strata = frame["set"].astype(str) + ":" + frame["agree"].astype(str)
    for train, test in StratifiedKFold(folds, shuffle=True, random_state=0).split(frame, strata):
        weights, intercept = fitted_weights(frame.iloc[train], min_support)
        conf[test] = scored(weights, intercept, frame["features"].iloc[test])
    return conf


def calibration_counts(frame: pd.DataFrame, conf: np.ndarray) -> dict[str, list[tuple[float, int, int]]]:
    """Per set: (confidence, verdicts, people disagree) for every confidence that occurs."""
    counts = pd.DataFrame({"set": frame["set"].to_numpy(), "c": conf, "d": 1 - frame["agree"].to_numpy(dtype=int)})
    out = {}
    for name, g in counts.groupby("set", sort=True):
        agg = g.groupby("c", sort=True)["d"].agg(["size", "sum"])
        out[str(name)] = [(float(c), int(n), int(d)) for c, (n, d) in zip(agg.index, agg.to_numpy())]
    return out


def fit_confidence(
    frame: pd.DataFrame, sets: list[LabelledSet], trained: str, min_support: int = MIN_SUPPORT
) -> ConfidenceModel:
    """The model fitted on every row of `frame`, with out-of-fold calibration counts."""
    weights, intercept = fitted_weights(frame, min_support)
    return ConfidenceModel(
        weights=weights,
        intercept=intercept,
        trained=trained,
        sets=sets,
        calibration=calibration_counts(frame, out_of_fold(frame, min_support)),
        settings={"min_support": min_support, "C": STRENGTH, "folds": FOLDS, "set_weights": "equal"},
    )


def leave_one_set_out(frame: pd.DataFrame, alpha: float, delta: float, min_support: int = MIN_SUPPORT) -> dict:
    """For each set: fitted and calibrated on the others, what the model and its threshold do on it."""
    from ragpipe.trust.confidence import shipped_bound

    out = {}
    for held in sorted(frame["set"].unique()):
        train, test = frame[frame["set"] != held], frame[frame["set"] == held]
        weights, intercept = fitted_weights(train, min_support)
        bound = shipped_bound(calibration_counts(train, out_of_fold(train, min_support)), alpha, delta)
        conf = scored(weights, intercept, test["features"])
        agree = test["agree"].to_numpy(dtype=int)
        firm = conf >= bound.threshold
        out[str(held)] = {
            "answers": len(test),
            **risk_coverage(conf, agree),
            "threshold": round(bound.threshold, 4),
            "firm_share": round(float(firm.mean()), 4),
            "firm_disagree": round(float(1 - agree[firm].mean()), 4) if firm.any() else None,
        }
    return out
