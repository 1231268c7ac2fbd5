"""The Wilson interval (scoring/wilson.py) is scipy's to the last bit, edges included."""

from __future__ import annotations

from scipy.special import ndtri
from scipy.stats import binomtest

from ragpipe.scoring.wilson import Z_95, wilson


def test_the_quantile_is_scipys():
    assert Z_95 == ndtri(0.5 + 0.5 * 0.95)


def test_every_share_up_to_sixty_and_some_large_ones_match_scipy_exactly():
    cases = [(k, n) for n in range(1, 61) for k in range(n + 1)] + [(0, 1200), (1, 1200), (1093, 1200), (9689, 9689)]
    for k, n in cases:
        ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        assert wilson(k, n) == (float(ci.low), float(ci.high)), (k, n)


def test_no_answers_no_interval():
    assert wilson(0, 0) == (None, None)
