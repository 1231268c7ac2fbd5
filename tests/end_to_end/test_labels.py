"""People's labels as data: imported into `human_labels`, revisions kept, stale once the answer changes,
exported, and read by the scorecards as people's accuracy with its interval."""

from __future__ import annotations

import json
import shutil

import duckdb
import pytest

from tests.commands import env_for
from tests.commands import ragpipe as run_ragpipe

pytestmark = pytest.mark.end_to_end  # imports regrade the pair through Dagster, in their own processes


def _lines(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _gradings(warehouse) -> int:
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        return conn.execute("SELECT count(*) FROM grading_events").fetchone()[0]


def _card(warehouse, answer_set="extractive"):
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        return (
            conn.execute("SELECT * FROM scorecards WHERE answer_set = ?", [answer_set]).df().iloc[0].to_dict(),
            conn.execute(
                "SELECT question_id, verdict, declined FROM grades WHERE answer_set = ? ORDER BY 1", [answer_set]
            ).df(),
        )


def test_labels_import_revise_go_stale_and_calibrate_the_scorecard(tmp_path, demo_warehouse_once):
    env = env_for(tmp_path)
    shutil.copytree(demo_warehouse_once, tmp_path / "wh")
    (tmp_path / "dh").mkdir()
    warehouse = tmp_path / "wh"
    before, grades = _card(warehouse)
    assert before["labels"] == 0 or before["labels"] is None  # nobody labelled the demo's system yet

    pair = {"corpus": "demo", "config": "default", "answer_set": "extractive"}
    # a person who agrees with the grader on 11 answers and calls one of its correct answers incorrect
    picked = grades.iloc[:12]
    rows = [
        {**pair, "question_id": q, "label": "incorrect" if i == 0 else ("correct" if v == "correct" else "incorrect"),
         "labeller": "ana"}
        for i, (q, v) in enumerate(zip(picked["question_id"], picked["verdict"]))
    ]  # fmt: skip
    rows += [
        {**pair, "answer_set": "nobody", "question_id": "x", "label": "correct"},
        {**pair, "question_id": picked["question_id"].iloc[1], "label": "maybe"},
    ]
    gradings = _gradings(warehouse)
    out = run_ragpipe(env, "labels", "import", str(_lines(tmp_path / "labels.jsonl", rows)))
    assert out.returncode == 0, out.stderr
    # labels recompute the scorecards, never record a grading: `delta` keeps the last rules change's flips
    assert _gradings(warehouse) == gradings
    assert "labels.jsonl:13: field question_id: no answer of set 'nobody'" in out.stderr
    assert "labels.jsonl:14: field label:" in out.stderr
    assert "imported 12 label(s)" in out.stdout

    card, _ = _card(warehouse)
    assert card["labels"] == 12 and card["people_low"] <= card["people_pct"] <= card["people_high"]
    assert card["people_high"] - card["people_low"] <= card["labels_only_high"] - card["labels_only_low"]
    assert card["overall_pct"] == before["overall_pct"]  # the grader's number stands beside people's
    # the agreement asset measures the grader against these people too, with its bias
    # (a decline is the grader's "refusal" class, whatever its verdict: grader_agreement/agreement.py)
    grader_right = sum(v == "correct" and not d for v, d in zip(picked["verdict"], picked["declined"]))
    people_right = sum(r["label"] == "correct" for r in rows[:12])
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        n, bias = conn.execute("SELECT n, bias FROM agreement WHERE scope = 'file' AND name = 'extractive'").fetchone()
    assert (n, bias) == (12, round((grader_right - people_right) / 12, 4))

    # the review report shows people's accuracy beside the grader's, as the scorecard does
    report = tmp_path / "review.html"
    run_ragpipe(env, "review", "--corpus", "demo", "--config", "default", "--out", str(report), check=True)
    shown = f'<td class="people">{card["people_pct"]} [{card["people_low"]}, {card["people_high"]}] (12 labels)'
    assert shown in report.read_text()

    # a revision: the latest label counts, both rows are kept
    first = picked["question_id"].iloc[0]
    run_ragpipe(env, "labels", "import", str(_lines(tmp_path / "again.jsonl", [{**pair, "question_id": first,
                "label": "correct", "labeller": "ben"}])), check=True)  # fmt: skip
    exported = [json.loads(line) for line in run_ragpipe(env, "labels", "export", check=True).stdout.splitlines()]
    assert len(exported) == 12 and {e["label"] for e in exported if e["question_id"] == first} == {"correct"}
    every = run_ragpipe(env, "labels", "export", "--revisions", check=True).stdout.splitlines()
    assert len(every) == 13
    assert _card(warehouse)[0]["people_pct"] >= card["people_pct"]  # one more answer people call correct

    # the answer's text changes: its label no longer counts, and says so
    with duckdb.connect(str(warehouse / "ragpipe.duckdb")) as conn:
        conn.execute(
            "UPDATE answers SET answer = answer || ' (edited)' WHERE answer_set = 'extractive' AND question_id = ?",
            [first],
        )
    run_ragpipe(env, "regrade", check=True)
    exported = [json.loads(line) for line in run_ragpipe(env, "labels", "export", check=True).stdout.splitlines()]
    assert [e["current"] for e in exported if e["question_id"] == first] == [False]
    assert _card(warehouse)[0]["labels"] == 11
