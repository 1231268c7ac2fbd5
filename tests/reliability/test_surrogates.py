"""A lone surrogate (`"\\ud800"`, valid JSON) is made valid text at the boundary and bricks nothing."""

from __future__ import annotations

import json

import duckdb
from dagster import DagsterInstance

from assets.runs.runner import run_corpus
from ragpipe.answering.log import log_dir
from ragpipe.inputs.jsonl import read_jsonl
from ragpipe.inputs.text import valid_json, valid_text
from tests.conftest import warehouse_resources


def test_lone_surrogates_become_replacement_characters_and_pairs_stay():
    assert valid_text("a\ud800b") == "a\ufffdb" and valid_text("\udfff") == "\ufffd"
    assert valid_text("emoji \U0001f600 stays") == "emoji \U0001f600 stays"
    assert valid_json({"k\ud800": ["x\udc00", 1, None]}) == {"k\ufffd": ["x\ufffd", 1, None]}


def test_a_jsonl_line_with_an_escaped_lone_surrogate_loads_as_valid_text(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text('{"question_id": "q", "answer": "\\ud800 and \\ud83d\\ude00"}\n')
    [(line, row)] = read_jsonl(path, [])
    assert row["answer"] == "\ufffd and \U0001f600"
    row["answer"].encode("utf-8")


def test_an_imported_surrogate_and_a_leftover_log_line_do_not_brick_the_pair(demo_warehouse, demo_questions, tmp_path):
    """The reported run: an import answering `"\\ud800"`, in a warehouse where an earlier run left such a line
    in its answer log (which made every later run fail at plan_answer_shards)."""
    leftover = log_dir(demo_warehouse, "demo", "default") / "shard-left-behind.jsonl"
    leftover.parent.mkdir(parents=True, exist_ok=True)
    row = {
        "corpus": "demo",
        "config": "default",
        "answer_set": "broken",
        "question_id": demo_questions[0].id,
        "answer_id": "0" * 16,
        "answer": "\ud800",
        "citations": [],
        "cited_chunks": [],
        "latency_ms": 1.0,
        "engine": "import",
        "engine_settings": "{}",
        "error": None,
        "raw": None,
        "label": None,
        "graded_as": None,
        "settings_key": "k",
        "logged_at": "2026-11-30T10:00:00+00:00",
    }
    leftover.write_text(json.dumps(row) + "\n")
    answers = tmp_path / "surrogate.jsonl"
    answers.write_text("".join(json.dumps({"question_id": q.id, "answer": "\ud800"}) + "\n" for q in demo_questions))
    override = {"engine": "import", "settings": {"path": str(answers)}, "concurrency": 1, "answer_set": "broken"}
    resources = warehouse_resources(demo_warehouse, engine_override=json.dumps(override))
    assert all(
        r.success for r in run_corpus("demo", ["default"], instance=DagsterInstance.ephemeral(), resources=resources)
    )
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        stored = conn.execute("SELECT DISTINCT answer FROM answers WHERE answer_set = 'broken'").fetchall()
        logged = conn.execute("SELECT count(*) FROM answer_log WHERE answer = '\ufffd'").fetchall()[0][0]
    assert stored == [("\ufffd",)] and logged >= 1 and not leftover.exists()
