"""Two systems on the same questions: who wins where, and whether the difference is more than noise.

Paired by question: an item is one question either answer set answered. B
*wins* a question A gets wrong and B right, *loses* the reverse, ties the rest.
A question one system left unanswered counts against it (not correct), as an
engine error does: a system cannot gain by skipping what it would get wrong.

- accuracy difference: diff = acc(B) - acc(A), acc the share graded `correct`
  (an ungradable question counts as not correct for both, so it is a tie);
- a 95% interval for diff by paired bootstrap: resample the questions with
  replacement (numpy, seeded: the same inputs give the same interval), take
  the 2.5th and 97.5th percentiles of the resampled diffs;
- exact McNemar p-value: under "no difference" each discordant question is a
  fair coin, so p = two-sided binomial test of wins among wins + losses,
  summed in whole numbers (the numbers of scipy.stats.binomtest, which
  tests/unit/scoring/test_compare_pvalue.py checks; importing scipy.stats cost every
  review report half a second); 1.0 when there are no discordant questions.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from ragpipe.grading.grade import Verdict
from ragpipe.scoring.interval_text import interval_text
from ragpipe.warehouse.nulls import records

RESAMPLES = 10_000
SEED = 20261130


def paired(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """Grades of A and B joined on question_id: the questions both answered, in question order."""
    keep = ["question_id", "verdict", "declined", "rule"]
    return a[keep].merge(b[keep], on="question_id", suffixes=("_a", "_b")).sort_values("question_id", kind="stable")


KEPT_DRAWS = 2_000_000  # resamples x questions at most, for the draws kept between calls (16 MB)


@lru_cache(maxsize=1)
def _kept_picks(n: int, resamples: int, seed: int) -> np.ndarray:
    picks = np.random.default_rng(seed).integers(0, n, size=(resamples, n))
    picks.flags.writeable = False
    return picks


def _picks(n: int, resamples: int, seed: int) -> np.ndarray:
    """The resampled question indices. Seeded, so the same for every pair of systems of one size: a
    leaderboard of ten systems on the same questions draws them once (drawing was most of its time)."""
    if n * resamples <= KEPT_DRAWS:
        return _kept_picks(n, resamples, seed)
    return np.random.default_rng(seed).integers(0, n, size=(resamples, n))


def bootstrap_interval(a_correct: np.ndarray, b_correct: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED):
    """(low, high) of the 95% paired-bootstrap interval of mean(b) - mean(a)."""
    n = len(a_correct)
    if n == 0:
        return 0.0, 0.0
    picks = _picks(n, resamples, seed)
    diffs = b_correct[picks].mean(axis=1) - a_correct[picks].mean(axis=1)
    low, high = np.percentile(diffs, [2.5, 97.5])
    return float(low), float(high)


def mcnemar_exact(wins: int, losses: int) -> float:
    """Twice the smaller tail of Binomial(wins + losses, 1/2), at most 1: exact, then rounded once."""
    n, fewer = wins + losses, min(wins, losses)
    if 2 * fewer == n:  # no discordant question, or as many wins as losses
        return 1.0
    term, tail = 1, 1  # C(n, 0), and the sum of C(n, i) for i <= fewer
    for i in range(1, fewer + 1):
        term = term * (n - i + 1) // i
        tail += term
    return min(1.0, tail / 2 ** (n - 1))


UNGRADABLE = "ungradable"


def graded(grades: pd.DataFrame) -> pd.DataFrame:
    """The answers the grader could grade. Accuracy, everywhere (scorecard, leaderboard, compare, gate,
    review, the Python API), is correct of graded: an ungradable answer (no needle to grade it by) is
    counted apart, never as wrong."""
    return grades[grades["verdict"] != UNGRADABLE]


UNANSWERED = "unanswered"


def _unanswered_by(graded_one: pd.DataFrame, missing: list[str], side: str, other: str) -> pd.DataFrame:
    """The questions `missing` from one side (`other`) that `side` answered and the grader graded, paired
    with an unanswered `other`: counted against it."""
    rows = graded_one[graded_one["question_id"].isin(missing)][["question_id", "verdict", "declined", "rule"]]
    rows = rows.rename(columns={c: f"{c}_{side}" for c in ("verdict", "declined", "rule")})
    return rows.assign(**{f"verdict_{other}": UNANSWERED, f"declined_{other}": False, f"rule_{other}": None})


def compare(a_name: str, a: pd.DataFrame, b_name: str, b: pd.DataFrame) -> dict:
    """The comparison of two grades tables (one answer set each) on the questions either answered and the
    grader graded; a question ungradable for either is set apart (`ungradable`), and one a system left
    unanswered counts against it (`unanswered_a`, `unanswered_b`)."""
    only_a = sorted(set(a["question_id"]) - set(b["question_id"]))
    only_b = sorted(set(b["question_id"]) - set(a["question_id"]))
    graded_a, graded_b = graded(a), graded(b)
    left_by_b, left_by_a = _unanswered_by(graded_a, only_a, "a", "b"), _unanswered_by(graded_b, only_b, "b", "a")
    both = paired(graded_a, graded_b)
    if len(left_by_a) or len(left_by_b):
        frames = [f for f in (both, left_by_b, left_by_a) if len(f)]
        both = pd.concat(frames, ignore_index=True).sort_values("question_id", kind="stable")
    answered_both = set(a["question_id"]) & set(b["question_id"])
    a_ok = (both["verdict_a"] == Verdict.CORRECT).to_numpy(dtype=float)
    b_ok = (both["verdict_b"] == Verdict.CORRECT).to_numpy(dtype=float)
    wins, losses = int(((b_ok == 1) & (a_ok == 0)).sum()), int(((a_ok == 1) & (b_ok == 0)).sum())
    n = len(both)
    low, high = bootstrap_interval(a_ok, b_ok)
    flips = both[(a_ok != b_ok)]
    return {
        "a": a_name,
        "b": b_name,
        "n": n,
        "a_correct": int(a_ok.sum()),
        "b_correct": int(b_ok.sum()),
        "a_accuracy": round(float(a_ok.mean()), 4) if n else 0.0,
        "b_accuracy": round(float(b_ok.mean()), 4) if n else 0.0,
        "wins": wins,
        "losses": losses,
        "ties": n - wins - losses,
        "diff": round(float(b_ok.mean() - a_ok.mean()), 4) if n else 0.0,
        "ci_low": round(low, 4),
        "ci_high": round(high, 4),
        "mcnemar_p": round(mcnemar_exact(wins, losses), 4),
        # answered by both, ungradable for one or both: set apart
        "ungradable": len(answered_both) - (n - len(left_by_a) - len(left_by_b)),
        "unanswered_a": len(left_by_a),  # questions A left unanswered that B answered: counted against A
        "unanswered_b": len(left_by_b),
        "only_a": only_a,
        "only_b": only_b,
        "flips": [
            {
                "question_id": r["question_id"],
                "winner": "b" if r["verdict_b"] == Verdict.CORRECT else "a",
                "a_verdict": r["verdict_a"],
                "a_rule": r["rule_a"],
                "b_verdict": r["verdict_b"],
                "b_rule": r["rule_b"],
            }
            for r in records(flips)
        ],
    }


def people_difference(a: pd.DataFrame, b: pd.DataFrame, people: pd.Series) -> dict | None:
    """People's accuracy difference B - A, estimated from the questions where people labelled both
    systems' answers and from the grader on every question both answered (PPI++ on per-question
    differences, scoring/calibration.py); None when no question has both labelled."""
    keep = ["question_id", "answer_id", "verdict", "kind"]
    both = a[keep].merge(b[keep], on="question_id", suffixes=("_a", "_b")).sort_values("question_id", kind="stable")
    labelled = both[both["answer_id_a"].isin(people.index) & both["answer_id_b"].isin(people.index)]
    if labelled.empty:
        return None
    from ragpipe.scoring.calibration import calibrate, people_correct

    def graded(frame: pd.DataFrame, side: str) -> np.ndarray:
        return (frame[f"verdict_{side}"] == Verdict.CORRECT).to_numpy(dtype=int)

    human = people_correct(people.loc[labelled["answer_id_b"]], labelled["kind_b"]) - people_correct(
        people.loc[labelled["answer_id_a"]], labelled["kind_a"]
    )
    c = calibrate(human, graded(labelled, "b") - graded(labelled, "a"), graded(both, "b") - graded(both, "a"), (-1, 1))
    return {
        "labelled_questions": c.labels,
        "people_diff": round(c.estimate, 4),
        "people_low": round(c.low, 4),
        "people_high": round(c.high, 4),
        "labels_only_low": round(c.labels_only_low, 4),
        "labels_only_high": round(c.labels_only_high, 4),
        "exact": c.labels >= c.answers,  # every question both answered is labelled for both: nothing estimated
    }


def compare_line(result: dict, where: str) -> str:
    """The comparison in one sentence, in the order typed: A first, then B, and the sign is B - A."""
    left = [f"{result.get(f'unanswered_{s}', 0)} unanswered by {s.upper()}" for s in "ab"]
    unanswered = result.get("unanswered_a", 0) + result.get("unanswered_b", 0)
    return (
        f"A {result['a']} vs B {result['b']} on {where}: {result['n']} questions graded"
        + (f" ({', '.join(left)}: counted against it)" if unanswered else " for both")
        + (f" ({result['ungradable']} ungradable set apart)" if result.get("ungradable") else "")
        + f", B wins {result['wins']}, loses {result['losses']}, ties {result['ties']}; "
        f"accuracy (correct of graded) A {100 * result['a_accuracy']:.1f}% -> "
        f"B {100 * result['b_accuracy']:.1f}% (B - A {100 * result['diff']:+.1f} points, 95% interval "
        f"{interval_text(100 * result['ci_low'], 100 * result['ci_high'], signed=True)}), "
        f"exact McNemar p = {result['mcnemar_p']:.3f}"
    ) + _people_clause(result.get("people"))


def _people_clause(people: dict | None) -> str:
    """What people's labels say of the same difference, where both systems have labels on a question."""
    if not people:
        return ""
    if people.get("exact"):
        return (
            f"; by people's labels: B - A {100 * people['people_diff']:+.1f} points "
            f"(exact: all {people['labelled_questions']} questions labelled for both)"
        )
    return (
        f"; by people's labels ({people['labelled_questions']} questions labelled for both): "
        f"B - A {100 * people['people_diff']:+.1f} points, 95% interval "
        f"{interval_text(100 * people['people_low'], 100 * people['people_high'], signed=True)}"
    )


def compare_retrieval(a: pd.DataFrame, b: pd.DataFrame, measures: list[str]) -> dict:
    """Each retrieval measure of two pairs' runs, paired by question: means, difference and its
    95% paired-bootstrap interval (the questions both score)."""
    out = {}
    for name in measures:
        both = a[["question_id", name]].merge(b[["question_id", name]], on="question_id", suffixes=("_a", "_b"))
        both = both.dropna().sort_values("question_id", kind="stable")
        va, vb = both[f"{name}_a"].to_numpy(dtype=float), both[f"{name}_b"].to_numpy(dtype=float)
        low, high = bootstrap_interval(va, vb)
        out[name] = {
            "n": len(both),
            "a": round(float(va.mean()), 4) if len(both) else None,
            "b": round(float(vb.mean()), 4) if len(both) else None,
            "diff": round(float(vb.mean() - va.mean()), 4) if len(both) else None,
            "ci_low": round(low, 4),
            "ci_high": round(high, 4),
        }
    return out
