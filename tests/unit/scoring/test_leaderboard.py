"""The leaderboard: ranks that follow accuracy, Wilson intervals, and the best one's lead over each other
system tested paired by question with Holm's adjustment."""

from __future__ import annotations

import pandas as pd
from scipy.stats import binomtest

from ragpipe.scoring.compare import compare
from ragpipe.scoring.leaderboard import leaderboard


def _grades(right: set[int], n: int = 100) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "question_id": [f"q{i:03d}" for i in range(n)],
            "verdict": ["correct" if i in right else "wrong" for i in range(n)],
            "declined": False,
            "rule": "r",
            "failure": None,
        }
    )


SYSTEMS = {
    "close": _grades(set(range(88))),
    "best": _grades(set(range(90))),
    "far": _grades(set(range(60))),
    "same": _grades(set(range(2, 92))),  # as accurate as the best, on other questions
}


def _holm(ps: list[float]) -> list[float]:
    """Holm's step-down adjustment by hand: the i-th smallest p times (m - i), made monotone, capped at 1."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = running
    return out


def test_ranks_intervals_and_the_lead_of_the_best():
    rows = leaderboard(SYSTEMS)
    assert [(r["system"], r["rank"]) for r in rows] == [("best", 1), ("same", 1), ("close", 3), ("far", 4)]
    for r in rows:
        ci = binomtest(r["correct"], r["n"]).proportion_ci(method="wilson")
        assert (r["low"], r["high"]) == (round(ci.low, 4), round(ci.high, 4))
        assert r["low"] <= r["accuracy"] <= r["high"]
    tests = {r["system"]: compare("best", SYSTEMS["best"], r["system"], SYSTEMS[r["system"]]) for r in rows[1:]}
    holm = dict(zip(tests, _holm([t["mcnemar_p"] for t in tests.values()])))
    for r in rows[1:]:
        t = tests[r["system"]]
        assert (r["diff"], r["diff_low"], r["diff_high"], r["p"]) == (
            t["diff"],
            t["ci_low"],
            t["ci_high"],
            t["mcnemar_p"],
        )
        assert r["p_holm"] == round(holm[r["system"]], 4) and r["p_holm"] >= r["p"]
    said = {r["system"]: r["vs_best"] for r in rows}
    assert said == {"best": "best", "same": "tied", "close": "tied", "far": "behind"}


def test_one_system_is_the_best_and_no_system_is_an_empty_board():
    (only,) = leaderboard({"best": SYSTEMS["best"]})
    assert (only["rank"], only["vs_best"], only["p_holm"]) == (1, "best", None)
    assert leaderboard({}) == []


def test_accuracy_is_correct_of_graded_everywhere_the_ungradable_set_apart():
    """One number per system: the leaderboard, compare and the scorecard all count correct of graded."""
    from ragpipe.scoring.compare import compare_line

    a, b = _grades(set(range(6)), n=10), _grades(set(range(5)), n=10)
    a.loc[a["question_id"].isin(["q008", "q009"]), "verdict"] = "ungradable"  # no needle to grade them by
    b.loc[b["question_id"] == "q007", "verdict"] = "ungradable"
    rows = {r["system"]: r for r in leaderboard({"a": a, "b": b})}
    assert (rows["a"]["n"], rows["a"]["correct"], rows["a"]["ungradable"], rows["a"]["accuracy"]) == (8, 6, 2, 0.75)
    assert (rows["b"]["n"], rows["b"]["ungradable"], rows["b"]["accuracy"]) == (9, 1, round(5 / 9, 4))
    result = compare("a", a, "b", b)
    assert (result["n"], result["ungradable"], result["a_accuracy"]) == (7, 3, round(6 / 7, 4))
    line = compare_line(result, "here")
    assert "7 questions graded for both (3 ungradable set apart)" in line and "accuracy (correct of graded)" in line


def test_a_question_a_system_left_unanswered_counts_against_it_everywhere():
    """The leaderboard, compare and the scorecard: B has no answer to two questions A answered (one A got
    right), so B is 5 of 10, not 5 of 8; it once ranked first on the questions it chose to answer."""
    from ragpipe.scoring.scorecard import build_scorecard

    a = _grades(set(range(6)), n=10)
    b = _grades(set(range(5)), n=10)
    b = b[~b["question_id"].isin(["q005", "q009"])]  # A answered q005 right; B left both
    rows = {r["system"]: r for r in leaderboard({"a": a, "b": b})}
    assert (rows["b"]["n"], rows["b"]["correct"], rows["b"]["unanswered"], rows["b"]["accuracy"]) == (10, 5, 2, 0.5)
    assert (rows["a"]["accuracy"], rows["a"]["unanswered"], rows["a"]["rank"]) == (0.6, 0, 1)
    result = compare("a", a, "b", b)
    assert (result["n"], result["unanswered_b"], result["losses"], result["b_accuracy"]) == (10, 2, 1, 0.5)
    stored = b.assign(corpus="c", config="k", answer_set="b", grader_version="g", kind="answerable",
                      ungradable=False, error=None, answer_id=b["question_id"])  # fmt: skip
    answers = pd.DataFrame({"answer_set": ["b"], "error": [None], "latency_ms": [1.0], "engine": ["x"]})
    card = build_scorecard(stored, answers, 1, 0, unanswered=2)
    assert (card["overall_pct"], card["unanswered"], card["graded"]) == (50.0, 2, 8)
