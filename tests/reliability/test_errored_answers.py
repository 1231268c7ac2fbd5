"""One errored answer is wrong alone: NULLs read back from DuckDB or Parquet are never taken for errors.

With pandas 3 a missing string comes back as NaN once its column holds any
text, and NaN is truthy: one errored answer marked every answer of its pair
`engine.error`. These tests put errored and clean answers side by side, in
one set and in one pair, through the real warehouse.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pandas as pd
from dagster import DagsterInstance

from assets.runs.runner import run_corpus
from ragpipe.answering.engines import make_engine
from ragpipe.answering.run import answer_questions
from ragpipe.answering.shards import read, write
from ragpipe.grading.grade_table import grade_answers
from ragpipe.warehouse.nulls import is_missing, or_none, records
from ragpipe.warehouse.tables import connect, read_partition, store
from tests.conftest import warehouse_resources


def _answers_file(path: Path, questions, skip: str) -> Path:
    with path.open("w") as f:
        for q in questions:
            if q.id != skip:
                f.write(
                    json.dumps({"question_id": q.id, "answer": q.gold_answer or "not found", "citations": []}) + "\n"
                )
    return path


def test_every_shape_of_missing_reads_as_none():
    frame = pd.DataFrame.from_records(
        [("a", None, [1], 1.5), ("b", "boom", [], float("nan"))], columns=["id", "error", "citations", "ms"]
    )
    assert isinstance(frame.iloc[0]["error"], float) or frame.iloc[0]["error"] is None  # pandas 3: NaN
    rows = records(frame)
    assert [r["error"] for r in rows] == [None, "boom"] and [r["ms"] for r in rows] == [1.5, None]
    assert rows[1]["citations"] == [] and not is_missing(rows[1]["citations"])
    typed = pd.DataFrame(
        {"n": pd.array([3, None], dtype="Int64"), "at": pd.to_datetime(["2026-12-03", None]), "k": [7, 8]}
    )
    rows = records(typed)
    assert [r["n"] for r in rows] == [3, None] and [r["at"] for r in rows] == [pd.Timestamp("2026-12-03"), None]
    assert [type(r["k"]) for r in rows] == [int, int]  # Python values, as a table's reader expects, not numpy's
    assert [or_none(v) for v in (None, float("nan"), pd.NA, pd.NaT, "x", 0)] == [None, None, None, None, "x", 0]


def test_one_errored_answer_beside_clean_ones_in_a_real_duckdb(tmp_path, demo_questions, context, rules):
    """Two sets in one pair, one of them with one failed answer: only that answer is an engine error,
    read back from DuckDB and from a shard's Parquet alike."""
    from ragpipe.corpus.questions import questions_frame

    missing = demo_questions[0].id
    full = _answers_file(tmp_path / "full.jsonl", demo_questions, skip="")
    short = _answers_file(tmp_path / "short.jsonl", demo_questions, skip=missing)
    frames = [
        answer_questions(make_engine("import", {"path": str(p)}), demo_questions, context, "demo", "t", name, {})
        for p, name in ((full, "full"), (short, "short"))
    ]
    answers = pd.concat(frames, ignore_index=True)
    assert answers["error"].notna().sum() == 1
    conn = connect(tmp_path / "wh.duckdb")
    store(conn, tmp_path, "answers", answers, {"corpus": "demo", "config": "t"})
    questions = questions_frame("demo", demo_questions)
    needles = pd.DataFrame(columns=["question_id", "needle", "kind", "source", "status"])
    from_duckdb = read_partition(conn, "answers", {"corpus": "demo", "config": "t"})
    from_parquet = read(write(from_duckdb, tmp_path / "shard.parquet"))
    for stored in (from_duckdb, from_parquet):
        grades = grade_answers(stored, questions, needles, rules)
        errored = grades[grades["rule"] == "engine.error"]
        assert list(zip(errored["answer_set"], errored["question_id"])) == [("short", missing)]
        assert grades["error"].notna().sum() == 1


def test_an_import_missing_one_answer_leaves_the_other_set_alone(demo_warehouse, demo_questions, tmp_path):
    """The reported run: `--engine import` with 30 of 31 answers, beside the built-in engine's set."""
    db = demo_warehouse / "ragpipe.duckdb"
    with duckdb.connect(str(db), read_only=True) as conn:
        before = conn.execute("SELECT question_id, verdict, rule FROM grades ORDER BY ALL").fetchall()
    missing = demo_questions[0].id
    short = _answers_file(tmp_path / "short.jsonl", demo_questions, skip=missing)
    override = {"engine": "import", "settings": {"path": str(short)}, "concurrency": 1, "answer_set": "short"}
    resources = warehouse_resources(demo_warehouse, engine_override=json.dumps(override))
    assert all(
        r.success for r in run_corpus("demo", ["default"], instance=DagsterInstance.ephemeral(), resources=resources)
    )
    with duckdb.connect(str(db), read_only=True) as conn:
        after = conn.execute(
            "SELECT question_id, verdict, rule FROM grades WHERE answer_set = 'extractive' ORDER BY ALL"
        ).fetchall()
        errored = conn.execute("SELECT answer_set, question_id FROM grades WHERE rule = 'engine.error'").fetchall()
        history = conn.execute("SELECT count(*) FROM grade_history WHERE rule = 'engine.error'").fetchall()[0][0]
    assert after == before  # the built-in engine's verdicts did not move
    assert errored == [("short", missing)] and history == 1
