"""Many systems at once: each answer set ranked with its interval, and the best one's lead over each
of the others tested, paired by question.

- accuracy: the share of a system's graded questions graded `correct`, an
  ungradable question set apart and a question another system answered and it
  did not counted against it (as in `compare`), with a Wilson 95% interval
  (scoring/wilson.py);
- rank: competition ranking by accuracy (1, 2, 2, 4), ties broken by name for
  the order only;
- against the best: `compare(best, other)` on the questions both answered
  (B - A with its paired-bootstrap interval, exact McNemar p), the p-values
  adjusted for the number of systems compared with Holm's step-down method
  (scoring/holm.py), so that "distinguishable from the best" holds for the whole
  table at 5%, not for each row alone. A system is `tied` with the best when
  its adjusted p is 0.05 or more.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ragpipe.grading.grade import Verdict
from ragpipe.grading.outcomes import WRONG_MONEY
from ragpipe.scoring.compare import compare, graded
from ragpipe.scoring.holm import holm
from ragpipe.scoring.wilson import wilson

ALPHA = 0.05


def _interval(correct: int, n: int) -> tuple[float | None, float | None]:
    low, high = wilson(correct, n)
    return (None, None) if low is None or high is None else (round(low, 4), round(high, 4))


def leaderboard(systems: dict[str, pd.DataFrame]) -> list[dict]:
    """One row per system (name -> its grades: question_id, verdict, declined, rule, failure), best first."""
    rows: list[dict[str, Any]] = []
    asked = set().union(*(set(g["question_id"]) for g in systems.values())) if systems else set()
    for name, grades in systems.items():  # accuracy: correct of graded and unanswered, the ungradable apart
        counted = graded(grades)
        unanswered = len(asked - set(grades["question_id"]))
        n, correct = len(counted) + unanswered, int((counted["verdict"] == Verdict.CORRECT).sum())
        low, high = _interval(correct, n)
        rows.append(
            {
                "system": name,
                "n": n,
                "correct": correct,
                "accuracy": round(correct / n, 4) if n else 0.0,
                "low": low,
                "high": high,
                "ungradable": len(grades) - len(counted),
                "unanswered": unanswered,
                "wrong_money": int((grades["failure"] == WRONG_MONEY).sum()) if "failure" in grades else 0,
                # answers the model judge decided (docs/judge.md); 0 without a judge
                "judged": int(grades["rule"].astype(str).str.startswith("judge.").sum()) if "rule" in grades else 0,
            }
        )
    rows.sort(key=lambda r: (-r["accuracy"], r["system"]))
    for row in rows:
        row["rank"] = 1 + sum(r["accuracy"] > row["accuracy"] for r in rows)
    if not rows:
        return rows
    best = rows[0]["system"]
    others = rows[1:]
    tests = [compare(best, systems[best], r["system"], systems[r["system"]]) for r in others]
    adjusted: Any = holm([t["mcnemar_p"] for t in tests]) if tests else []
    rows[0].update(vs_best="best", paired=None, diff=None, diff_low=None, diff_high=None, p=None, p_holm=None)
    for row, test, p_holm in zip(others, tests, adjusted):
        row.update(
            vs_best="tied" if p_holm >= ALPHA else "behind",
            paired=test["n"],
            diff=test["diff"],
            diff_low=test["ci_low"],
            diff_high=test["ci_high"],
            p=test["mcnemar_p"],
            p_holm=round(float(p_holm), 4),
        )
    return rows


def leaderboard_frame(rows: list[dict]) -> pd.DataFrame:
    columns = ["rank", "system", "n", "correct", "accuracy", "low", "high", "vs_best", "paired", "diff"]
    columns += ["diff_low", "diff_high", "p", "p_holm", "ungradable", "wrong_money", "judged", "unanswered"]
    return pd.DataFrame(rows, columns=columns)


def pair_leaderboard(conn, corpus: str, config: str) -> pd.DataFrame:
    """The leaderboard of one stored pair's grades, as the `leaderboards` table keeps it (with the pair and
    the grader version), for the review report to read instead of testing every pair of systems again."""
    from ragpipe.warehouse.tables import read_partition

    grades = read_partition(conn, "grades", {"corpus": corpus, "config": config})
    frame = leaderboard_frame(leaderboard(dict(tuple(grades.groupby("answer_set", sort=True)))))
    version = str(grades["grader_version"].iloc[0]) if len(grades) else ""
    return frame.assign(corpus=corpus, config=config, grader_version=version)
