"""Scorecards by question type and kind: counts that add up to the scorecard's, stored for SQL, printed by
`ragpipe scorecard --by`, and shown in the review report."""

from __future__ import annotations

import json
import re

import duckdb
import pandas as pd
import pytest
from scipy.stats import binomtest

from ragpipe.scoring.slices import NONE, slice_rows
from tests.commands import invoke


def _grades() -> pd.DataFrame:
    verdicts = ["correct", "correct", "wrong", "ungradable", "partial", "correct"]
    return pd.DataFrame(
        {
            "corpus": "c",
            "config": "k",
            "answer_set": "s",
            "grader_version": "g-1",
            "question_id": [f"q{i}" for i in range(6)],
            "kind": ["answerable", "answerable", "answerable", "answerable", "negative", "negative"],
            "verdict": verdicts,
            "declined": [False, False, False, False, True, True],
            "failure": [None, None, "wrong money figure", None, None, None],
        }
    )


def test_slices_add_up_and_say_how_rough_they_are():
    questions = pd.DataFrame(
        {"question_id": ["q0", "q1", "q2", "q3", "q4"], "question_type": ["money"] * 3 + ["", None]}
    )
    rows = slice_rows(_grades(), questions)
    for _, group in rows.groupby("slice_by"):
        assert group["total"].sum() == 6 and group["correct"].sum() == 3
        assert (group["total"] == group[["correct", "partial", "wrong", "ungradable"]].sum(axis=1)).all()
    types = rows[rows["slice_by"] == "question_type"].set_index("slice")
    assert list(types.index) == [NONE, "money"]  # blank, missing and unlisted types are one slice
    money = types.loc["money"]
    assert (money["correct"], money["wrong"], money["graded"], money["wrong_money"]) == (2, 1, 3, 1)
    ci = binomtest(2, 3).proportion_ci(method="wilson")
    assert (money["low_pct"], money["high_pct"]) == (round(100 * ci.low, 1), round(100 * ci.high, 1))
    kinds = rows[rows["slice_by"] == "kind"].set_index("slice")
    assert kinds.loc["answerable", "ungradable"] == 1 and kinds.loc["answerable", "overall_pct"] == 66.7
    assert kinds.loc["negative", "declined"] == 2
    with pytest.raises(ValueError, match="not 'model'"):
        slice_rows(_grades(), questions, ["model"])


@pytest.mark.end_to_end
def test_the_pipeline_stores_slices_the_command_prints_them_and_the_review_shows_them(demo_warehouse_once, tmp_path):
    with duckdb.connect(str(demo_warehouse_once / "ragpipe.duckdb"), read_only=True) as conn:
        slices = conn.execute("SELECT * FROM scorecard_slices ORDER BY answer_set, slice").df()
        cards = conn.execute("SELECT answer_set, total, correct, wrong FROM scorecards").df().set_index("answer_set")
        types = conn.execute("SELECT count(DISTINCT question_type) FROM questions WHERE corpus = 'demo'").fetchall()[0][
            0
        ]
    assert set(slices["slice_by"]) == {"question_type", "kind"}
    for (answer_set, _), group in slices.groupby(["answer_set", "slice_by"]):
        assert tuple(group[["total", "correct", "wrong"]].sum()) == tuple(cards.loc[answer_set])
    by_type = slices[slices["slice_by"] == "question_type"]
    assert by_type.groupby("answer_set").size().tolist() == [types] * by_type["answer_set"].nunique()
    result = invoke("scorecard", "--by", "question_type", "--json", warehouse=demo_warehouse_once)
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert [(r["answer_set"], r["slice"], r["correct"]) for r in printed] == list(
        by_type[["answer_set", "slice", "correct"]].itertuples(index=False, name=None)
    )
    refused = invoke("scorecard", "--by", "model", warehouse=demo_warehouse_once)
    assert refused.exit_code == 2 and "--by takes question_type or kind" in refused.output
    out = tmp_path / "review.html"
    assert invoke("review", "--corpus", "demo", "--out", str(out), warehouse=demo_warehouse_once).exit_code == 0
    shown = re.findall(r'data-slice="([^"]+)"', out.read_text())
    assert shown == [
        f"{r.answer_set}|{r.slice_by}|{r.slice}"
        for r in slices.sort_values(["answer_set", "slice_by", "slice"], ascending=[True, False, True]).itertuples()
    ]
