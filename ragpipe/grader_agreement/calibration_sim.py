"""How many labels does a set need? Calibration simulated on a set people labelled in full.

For each answer set, `repeats` times: draw `n` of its answers at random as if only they were labelled,
estimate people's accuracy from those and the grader on all (scoring/calibration.py), and compare
with people's accuracy on every answer. Reported per set: the estimate's mean absolute error, the share
of intervals holding the truth (coverage; 0.95 is the promise), and mean widths beside the labels-only
interval's. Across sets: Kendall's tau between the order the grader puts the sets in and the people's
(scipy.stats.kendalltau).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ragpipe.grader_agreement.agreement import CORRECT
from ragpipe.scoring.calibration import calibrate


def simulate_calibration(frame: pd.DataFrame, n: int, repeats: int = 200, seed: int = 0) -> dict:
    """`frame`: one row per labelled answer with `answer_set`, `human` and `grader` classes."""
    from scipy.stats import kendalltau

    if n < 2:
        raise ValueError(f"--calibrate {n}: at least 2 labels are needed for an interval")
    rng = np.random.default_rng(seed)
    sets: dict[str, dict] = {}
    for name, group in frame.groupby("answer_set", sort=True):
        human = (group["human"] == CORRECT).to_numpy(dtype=int)
        grader = (group["grader"] == CORRECT).to_numpy(dtype=int)
        truth, size = float(human.mean()), len(group)
        row = {"answers": size, "human_accuracy": round(truth, 4), "grader_accuracy": round(float(grader.mean()), 4)}
        row["bias"] = round(row["grader_accuracy"] - truth, 4)
        if n >= size:
            sets[name] = row | {"skipped": f"{size} answers: {n} labels would be all of them"}
            continue
        errors, covered, widths, widths_alone = [], [], [], []
        for _ in range(repeats):
            drawn = rng.choice(size, n, replace=False)
            c = calibrate(human[drawn], grader[drawn], grader)
            errors.append(abs(c.estimate - truth))
            covered.append(c.low <= truth <= c.high)
            widths.append(c.high - c.low)
            widths_alone.append(c.labels_only_high - c.labels_only_low)
        sets[name] = row | {
            "estimate_mae": round(float(np.mean(errors)), 4),
            "coverage": round(float(np.mean(covered)), 4),
            "width": round(float(np.mean(widths)), 4),
            "width_labels_only": round(float(np.mean(widths_alone)), 4),
        }
    measured = [s for s in sets.values() if "coverage" in s]
    tau = None
    if len(sets) >= 2:
        grader, people = ([s[k] for s in sets.values()] for k in ("grader_accuracy", "human_accuracy"))
        tau = round(float(kendalltau(grader, people).statistic), 4)
    return {
        "labels": n,
        "repeats": repeats,
        "seed": seed,
        "sets": sets,
        "mean_estimate_mae": round(float(np.mean([s["estimate_mae"] for s in measured])), 4) if measured else None,
        "mean_grader_error": round(float(np.mean([abs(s["bias"]) for s in sets.values()])), 4) if sets else None,
        "min_coverage": min((s["coverage"] for s in measured), default=None),
        "ranking": {"sets": len(sets), "kendall_tau": tau},
    }
