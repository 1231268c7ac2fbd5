"""The exact McNemar p-value (scoring/compare.py) is scipy's binomial test, summed in whole numbers."""

from __future__ import annotations

import math

from scipy.stats import binomtest

from ragpipe.scoring.compare import mcnemar_exact


def test_every_split_up_to_a_hundred_and_twenty_discordant_questions_gives_scipys_p():
    for n in range(1, 121):
        for wins in range(n + 1):
            ours, theirs = mcnemar_exact(wins, n - wins), float(binomtest(wins, n, 0.5).pvalue)
            assert math.isclose(ours, theirs, rel_tol=1e-12) and round(ours, 4) == round(theirs, 4), (wins, n)


def test_edges():
    assert mcnemar_exact(0, 0) == 1.0 and mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(0, 5) == mcnemar_exact(5, 0) == 2 / 32  # both tails of the one extreme
    for wins, losses in ((0, 1070), (3, 1060), (500, 1500)):  # tails down to the smallest floats
        assert math.isclose(mcnemar_exact(wins, losses), binomtest(wins, wins + losses, 0.5).pvalue, rel_tol=1e-12)
