"""The scorecard's firm line: the corpus's own bound from its own labels, or the shipped calibration."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ragpipe.answering.labels import HUMAN_CLASSES
from ragpipe.scoring.trust_line import trust_columns

CORRECT, INCORRECT, _ = HUMAN_CLASSES


def _grades(n: int, rng) -> pd.DataFrame:
    confidence = np.round(rng.uniform(0.5, 1.0, n), 3)
    return pd.DataFrame(
        {
            "answer_id": [f"a{i}" for i in range(n)],
            "kind": "answerable",
            "verdict": "correct",
            "declined": False,
            "firm": confidence >= 0.9,
            "confidence": confidence,
        }
    )


def test_without_labels_the_shipped_calibration_is_said():
    grades = _grades(100, np.random.default_rng(0))
    out = trust_columns(grades, pd.Series(dtype=object), 0.01, 0.1)
    assert out["firm_pct"] == round(100 * grades["firm"].mean(), 1)
    assert out["trust"].endswith("by the shipped calibration: no bound measured on this corpus")


def test_enough_labels_that_agree_give_the_corpus_its_own_bound():
    rng = np.random.default_rng(1)
    grades = _grades(2000, rng)
    # people agree with every verdict above 0.7 and with one in two below it
    said = [CORRECT if c > 0.7 or rng.uniform() < 0.5 else INCORRECT for c in grades["confidence"]]
    people = pd.Series(said, index=grades["answer_id"])
    out = trust_columns(grades, people, 0.01, 0.1)
    assert out["trust"] == (
        f"firm {out['firm_pct']}%: people disagree with at most 1% of these (90% confidence, 2000 of your labels)"
    )
    assert 45 < out["firm_pct"] <= 60 + 1  # about the 60% above 0.7, never the unsure half below


def test_too_few_labels_show_no_bound_yet():
    grades = _grades(100, np.random.default_rng(2))
    people = pd.Series([CORRECT] * 40, index=grades["answer_id"][:40])
    assert trust_columns(grades, people, 0.01, 0.1)["trust"].endswith("your 40 labels show no bound at 1% yet")
