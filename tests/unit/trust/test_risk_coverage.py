"""Risk-coverage and calibration error, on verdicts whose answers are known."""

from __future__ import annotations

import numpy as np
import pytest

from ragpipe.trust.risk_coverage import expected_calibration_error, risk_coverage


def test_the_curve_counts_disagreements_among_the_most_confident():
    conf = [0.99, 0.95, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]
    agree = [1, 1, 1, 1, 0, 1, 1, 0, 1, 0]
    curve = risk_coverage(conf, agree)
    assert curve["coverage"][0] == 0.1 and curve["coverage"][-1] == 1.0
    assert curve["risk"][:4] == [0.0, 0.0, 0.0, 0.0]
    assert curve["risk"][4] == pytest.approx(1 / 5) and curve["risk"][-1] == pytest.approx(3 / 10)
    # the area: the mean over every k of the risk among the k most confident
    risks = [np.mean([1 - a for a in agree[:k]]) for k in range(1, 11)]
    assert curve["aurc"] == pytest.approx(round(float(np.mean(risks)), 4))


def test_a_better_order_has_a_smaller_area():
    agree = [1] * 90 + [0] * 10
    good = risk_coverage(np.linspace(1, 0, 100), agree)  # every disagreement last
    bad = risk_coverage(np.linspace(0, 1, 100), agree)  # every disagreement first
    assert good["aurc"] < bad["aurc"]


def test_calibration_error_is_the_gap_between_confidence_and_agreement():
    rng = np.random.default_rng(0)
    conf = rng.uniform(0, 1, 200_000)
    calibrated = (rng.uniform(size=conf.size) < conf).astype(int)
    assert expected_calibration_error(conf, calibrated) < 0.005
    overconfident = (rng.uniform(size=conf.size) < conf - 0.1).astype(int)
    assert expected_calibration_error(conf, overconfident) == pytest.approx(0.1, abs=0.01)


def test_no_verdicts_no_curve():
    assert risk_coverage([], [])["aurc"] is None
