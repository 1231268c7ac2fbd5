"""Holm's adjustment (scoring/holm.py) gives statsmodels' numbers, ties and caps included."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from ragpipe.scoring.holm import holm


@pytest.mark.parametrize("seed", range(20))
def test_holm_gives_the_numbers_statsmodels_gives(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 12))
    p = rng.choice([0.001, 0.01, 0.02, 0.04, 0.3, 0.9, 1.0], size=m) if seed % 2 else rng.random(m)  # ties too
    assert np.array_equal(holm(p), multipletests(p, method="holm")[1])


def test_holm_steps_down_and_caps_at_one():
    assert holm([0.01, 0.04, 0.03]).tolist() == [0.03, 0.06, 0.06]  # 0.01x3; 0.03x2; 0.04x1 lifted to 0.06
    assert holm([0.6, 0.2]).tolist() == [0.6, 0.4]
    assert holm([0.7, 0.8]).tolist() == [1.0, 1.0]
