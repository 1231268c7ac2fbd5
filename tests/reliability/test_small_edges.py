"""The smaller edges of issue 23: a lock wait that is no number of seconds, a truncated warehouse, a second
answer to one question in `grade`, answer-log times on a whole second."""

from __future__ import annotations

import json
import shutil

import pytest

from ragpipe.answering.log import absorb_file_logs
from ragpipe.grading.adhoc import grade_files
from ragpipe.warehouse.lock import SettingRefused, lock_wait
from ragpipe.warehouse.tables import connect
from tests.commands import env_for, ragpipe


@pytest.mark.parametrize("value", ["-1", "abc", "nan", "inf", "1e9"])
def test_a_lock_wait_that_is_not_seconds_is_refused(monkeypatch, value):
    monkeypatch.setenv("RAGPIPE_LOCK_WAIT", value)
    with pytest.raises(SettingRefused, match="RAGPIPE_LOCK_WAIT"):
        lock_wait()


def test_a_lock_wait_in_seconds_is_taken(monkeypatch):
    monkeypatch.setenv("RAGPIPE_LOCK_WAIT", "2.5")
    assert lock_wait() == 2.5


@pytest.mark.parametrize("keep_bytes", [5_000, 300_000])
def test_a_truncated_warehouse_is_one_line_not_a_traceback(demo_warehouse_once, tmp_path, keep_bytes):
    """Cut short at the header (it does not open) or further on (it opens, and a query runs off its end)."""
    env = env_for(tmp_path)
    (tmp_path / "wh").mkdir()
    with (demo_warehouse_once / "ragpipe.duckdb").open("rb") as whole:
        (tmp_path / "wh" / "ragpipe.duckdb").write_bytes(whole.read(keep_bytes))
    out = ragpipe(env, "scorecard", timeout=120)
    said = (out.stdout + out.stderr).strip().splitlines()
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    assert len(said) == 1 and "damaged or not a DuckDB file" in said[0]


def test_lock_wait_refused_by_a_command_in_one_line(demo_warehouse_once, tmp_path):
    shutil.copytree(demo_warehouse_once, tmp_path / "wh")
    out = ragpipe(env_for(tmp_path, RAGPIPE_LOCK_WAIT="abc"), "scorecard", timeout=120)
    assert out.returncode == 1 and "RAGPIPE_LOCK_WAIT='abc'" in out.stderr and "Traceback" not in out.stderr


def test_a_second_answer_to_one_question_is_graded_and_reported(tmp_path, rules):
    questions, answers = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    questions.write_text(
        json.dumps(
            {
                "id": "rent",
                "question": "What is the rent?",
                "kind": "answerable",
                "gold_answer": "$2,150",
                "money_key": "$2,150",
            }
        )
        + "\n"
    )
    answers.write_text(
        "".join(
            json.dumps({"question_id": "rent", "answer": a}) + "\n"
            for a in ("The rent is $2,150.", "The rent is $9,999.")
        )
    )
    graded = grade_files(questions, answers, rules)
    rows, notes = graded.rows, graded.notes
    assert [r["verdict"] for r in rows] == ["correct", "wrong"]
    assert graded.problems == []  # graded, so not a problem: a note, said apart from the skipped rows
    assert [(p.line, p.field) for p in notes] == [(2, "question_id")] and "the first is on line 1" in str(notes[0])


def test_log_times_on_a_whole_second_are_read(tmp_path):
    folder = tmp_path / "log"
    folder.mkdir()
    base = {
        "corpus": "demo",
        "config": "t",
        "answer_set": "s",
        "question_id": "q",
        "answer": "a",
        "error": None,
        "settings_key": "k",
    }
    lines = [
        {**base, "answer_id": "1", "logged_at": "2026-11-30T10:00:00.123456+00:00"},
        {**base, "answer_id": "2", "logged_at": "2026-11-30T10:00:01+00:00"},  # no microseconds
    ]
    (folder / "shard.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    conn = connect(tmp_path / "wh.duckdb")
    assert absorb_file_logs(conn, folder) == 2
