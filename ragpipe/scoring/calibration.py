"""People's accuracy on a set of answers, estimated from a few people's labels and the grader's
verdict on every answer: prediction-powered inference, power-tuned (PPI++; Angelopoulos, Duchi and
Zrnic 2023), from the `ppi-python` package.

The grader's accuracy on all answers is corrected by its error measured on the labelled ones. The
95% interval stays valid however wrong the grader is; power tuning weighs the grader by how well it
predicts the people, so a useless grader costs nothing. Where the tuned interval would still come out
wider than the labels alone give (a small sample's noise in the tuning), the labels-only interval is
reported: it is never wider.

At small n the CLT intervals lie: three labels that all say "correct" give a classical interval of
[100, 100], and PPI's can be as narrow. So a share's labels-only interval is Wilson's score interval
(scoring/wilson.py), which stays honest at n = 1, and the power-tuned one is only reported from
`MIN_TUNED_LABELS` labels on, with `MIN_EACH_WAY` of them on each side (the textbook condition for
a share's normal approximation), where that approximation has something to stand on.

What the interval covers: people's accuracy on *this* question set, as the people who labelled would
label every answer, for labels drawn uniformly at random from the set. It says nothing of other
questions, other people, or labels chosen by hand (the labelling page draws them at random, seeded).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import cast

import numpy as np

from ragpipe.corpus.kinds import DECLINING_RIGHT

ALPHA = 0.05  # 95% intervals
MIN_TUNED_LABELS = 30  # below it, the labels' own interval is reported (see the module's docstring)
MIN_EACH_WAY = 5  # a share's normal approximation wants n*p and n*(1-p) of 5 or more (the textbook rule)


@dataclass(frozen=True)
class Calibrated:
    """One answer set's accuracy: the grader's, and people's estimated from `labels` of them."""

    answers: int
    labels: int
    grader_accuracy: float
    estimate: float  # people's accuracy, estimated (exact when every answer is labelled)
    low: float
    high: float
    labels_only_estimate: float
    labels_only_low: float
    labels_only_high: float
    tuned: bool  # False: the power-tuned interval came out wider, and the labels-only one is reported

    def as_dict(self) -> dict:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items()}


def people_correct(said, kinds) -> np.ndarray:
    """1 where people's label makes an answer right as the scorecard counts it: `correct`, or a refusal
    where declining is right (a negative or ambiguous question)."""
    from ragpipe.answering.labels import HUMAN_CLASSES

    CORRECT, _, REFUSAL = HUMAN_CLASSES

    said, kinds = np.asarray(said, dtype=object), np.asarray(kinds, dtype=object)
    return ((said == CORRECT) | ((said == REFUSAL) & np.isin(kinds, sorted(DECLINING_RIGHT)))).astype(int)


def _interval(pair, bounds: tuple[float, float]) -> tuple[float, float]:
    low, high = (float(np.ravel(x)[0]) for x in pair)
    return max(bounds[0], low), min(bounds[1], high)


def calibrate(
    human: np.ndarray, grader_labelled: np.ndarray, grader_all: np.ndarray, bounds: tuple[float, float] = (0.0, 1.0)
) -> Calibrated:
    """`human` and `grader_labelled`: 1 where people / the grader call a labelled answer correct, in the
    same order; `grader_all`: the grader on every answer of the set (the labelled ones included). For a
    difference between two systems, the values are per-question differences and `bounds` (-1, 1)."""
    y = np.asarray(human, dtype=float)
    yhat = np.asarray(grader_labelled, dtype=float)
    everyone = np.asarray(grader_all, dtype=float)
    n, total = len(y), len(everyone)
    if n == 0:
        raise ValueError("no labelled answer: people's accuracy cannot be estimated")
    grader = float(everyone.mean())
    alone = float(y.mean())
    if n >= total:  # every answer labelled: people's accuracy is known, not estimated
        return Calibrated(total, n, grader, alone, alone, alone, alone, alone, alone, False)
    from ppi_py import classical_mean_ci, ppi_mean_ci, ppi_mean_pointestimate  # ~3 s: only where estimated

    share = bounds == (0.0, 1.0) and bool(np.isin(y, (0.0, 1.0)).all())
    if share:  # Wilson's, honest at any n
        from ragpipe.scoring.wilson import wilson

        only = cast(tuple[float, float], wilson(int(y.sum()), n))  # n > 0 here
    else:  # a difference of two systems' shares, per question
        only = _interval(classical_mean_ci(y, alpha=ALPHA), bounds)
    normal = n >= MIN_TUNED_LABELS and (not share or min(y.sum(), n - y.sum()) >= MIN_EACH_WAY)
    interval = _interval(ppi_mean_ci(y, yhat, everyone, alpha=ALPHA), bounds)  # lam=None: power-tuned (PPI++)
    estimate = float(np.ravel(ppi_mean_pointestimate(y, yhat, everyone))[0])
    tuned = normal and interval[1] - interval[0] <= only[1] - only[0] and bool(np.isfinite(estimate))
    if not tuned:
        estimate, interval = alone, only
    estimate = min(bounds[1], max(bounds[0], estimate))
    return Calibrated(total, n, grader, estimate, *interval, alone, *only, bool(tuned))
