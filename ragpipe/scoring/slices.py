"""Scorecards by slice: each answer set's verdicts counted per question type or per question kind, so a
system that is good on figures and bad on yes/no questions says so.

One row per (answer set, dimension, slice). The counts add up as the
scorecard's do: total = correct + partial + wrong + ungradable, and the
slices of one dimension sum to the set's total. A question with no type is
the slice `(none)`. Accuracy is correct over the graded, with a Wilson 95%
interval: a slice of 12 questions is a rough number, and the interval says
how rough.
"""

from __future__ import annotations

import pandas as pd

from ragpipe.grading.grade import VERDICTS
from ragpipe.grading.outcomes import WRONG_MONEY
from ragpipe.scoring.wilson import wilson

DIMENSIONS = ("question_type", "kind")
NONE = "(none)"
SLICE_COLUMNS = [
    "corpus",
    "config",
    "answer_set",
    "grader_version",
    "slice_by",
    "slice",
    "total",
    "graded",
    "correct",
    "partial",
    "wrong",
    "ungradable",
    "overall_pct",
    "low_pct",
    "high_pct",
    "declined",
    "wrong_money",
]


def _wilson_pct(correct: int, graded: int) -> tuple[float | None, float | None]:
    low, high = wilson(correct, graded)
    return (None, None) if low is None or high is None else (round(100 * low, 1), round(100 * high, 1))


def slice_rows(grades: pd.DataFrame, questions: pd.DataFrame, dimensions=DIMENSIONS) -> pd.DataFrame:
    """Per (answer set, dimension, slice) counts of `grades` (one pair's), each question's type read from
    `questions` (question_id, question_type); `kind` is the grades' own."""
    types = questions.set_index("question_id")["question_type"] if len(questions) else pd.Series(dtype=object)
    frame = grades.assign(
        question_type=grades["question_id"].map(types),
        **{f"_{v}": grades["verdict"] == v for v in VERDICTS},
        _declined=grades["declined"].astype(bool),
        _wrong_money=grades["failure"] == WRONG_MONEY,
        _total=1,
    )
    summed = ["_total", *(f"_{v}" for v in VERDICTS), "_declined", "_wrong_money"]
    rows = []
    for by in dimensions:  # one groupby a dimension (a group at a time cost a regrade 28 ms a pair)
        if by not in DIMENSIONS:
            raise ValueError(f"slices are by {' or '.join(DIMENSIONS)}, not {by!r}")
        values = frame[by].where(frame[by].notna() & (frame[by] != ""), NONE).rename("_slice")
        groups = frame.groupby([frame["answer_set"], values], sort=True)
        firsts = groups[["corpus", "config", "grader_version"]].first()
        for (answer_set, value), n in groups[summed].sum().iterrows():
            counts = {v: int(n[f"_{v}"]) for v in VERDICTS}
            graded = int(n["_total"]) - counts["ungradable"]
            low, high = _wilson_pct(counts["correct"], graded)
            first = firsts.loc[(answer_set, value)]
            rows.append(
                {
                    "corpus": first["corpus"],
                    "config": first["config"],
                    "answer_set": answer_set,
                    "grader_version": first["grader_version"],
                    "slice_by": by,
                    "slice": value,
                    "total": int(n["_total"]),
                    "graded": graded,
                    **counts,
                    "overall_pct": round(100 * counts["correct"] / graded, 1) if graded else None,
                    "low_pct": low,
                    "high_pct": high,
                    "declined": int(n["_declined"]),
                    "wrong_money": int(n["_wrong_money"]),
                }
            )
    rows.sort(key=lambda r: (r["answer_set"], list(dimensions).index(r["slice_by"]), r["slice"]))
    return pd.DataFrame(rows, columns=SLICE_COLUMNS)


def pair_slices(conn, corpus: str, config: str) -> pd.DataFrame:
    """The slices of one (corpus, configuration)'s grades, from the warehouse."""
    from ragpipe.warehouse.tables import read_partition

    grades = read_partition(conn, "grades", {"corpus": corpus, "config": config})
    if grades.empty:
        return pd.DataFrame(columns=SLICE_COLUMNS)
    return slice_rows(grades, read_partition(conn, "questions", {"corpus": corpus}))
