"""A pair's grades and their history land in one transaction: a crash while recording history leaves both
as they were (before, grades were new and history old: the scorecard showed no stale warning and `delta`
said 0 changed while verdicts had flipped)."""

from __future__ import annotations

import pandas as pd
import pytest

import ragpipe.history.ledger as ledger
from ragpipe.grading.rules import load_rules
from ragpipe.history.ledger import store_grading
from ragpipe.warehouse.tables import connect, read_partition, transaction


class Killed(BaseException):
    """Stands for the process dying at this point (BaseException: nothing catches it on the way out)."""


def test_a_crash_while_recording_history_leaves_grades_and_history_as_they_were(demo_warehouse, monkeypatch):
    keys = {"corpus": "demo", "config": "default"}
    conn = connect(demo_warehouse / "ragpipe.duckdb")
    before = read_partition(conn, "grades", keys, order_by="answer_id")
    history_before = conn.execute("SELECT count(*) FROM grade_history").fetchall()[0][0]
    flipped = before.assign(verdict="wrong", rule="test.flip")

    def dies(*args, **kwargs):
        raise Killed()

    monkeypatch.setattr(ledger, "append_changed_rows", dies)
    with pytest.raises(Killed):
        store_grading(conn, demo_warehouse, flipped, keys, load_rules(), "run-x", pd.Timestamp.now(tz="UTC"))
    after = read_partition(conn, "grades", keys, order_by="answer_id")
    assert after.equals(before)  # the new grades were rolled back with the history that failed
    assert conn.execute("SELECT count(*) FROM grade_history").fetchall()[0][0] == history_before

    monkeypatch.undo()
    path, event = store_grading(conn, demo_warehouse, flipped, keys, load_rules(), "run-y", pd.Timestamp.now(tz="UTC"))
    assert set(read_partition(conn, "grades", keys)["rule"]) == {"test.flip"} and event["history_rows"] == len(flipped)
    assert path.is_file()


def test_transactions_nest_into_the_outer_one(tmp_path):
    conn = connect(tmp_path / "t.duckdb")
    conn.execute("CREATE TABLE t (x INT)")
    with pytest.raises(RuntimeError), transaction(conn):
        with transaction(conn):
            conn.execute("INSERT INTO t VALUES (1)")
        raise RuntimeError("the outer block fails after the inner one finished")
    assert conn.execute("SELECT count(*) FROM t").fetchall()[0][0] == 0
