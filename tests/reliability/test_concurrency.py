"""Two ragpipe processes at once: writers take turns or say "warehouse busy"; readers never block on the write lock."""

from __future__ import annotations

import os
import shutil

import duckdb
import pytest

from ragpipe.warehouse.lock import writing
from tests.commands import env_for, ragpipe, start, wait_until_open


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory, demo_warehouse_once):
    """tmp/wh: a copy of the session's demo warehouse, tmp/dh a Dagster home for the runs the tests start."""
    tmp = tmp_path_factory.mktemp("concurrency")
    shutil.copytree(demo_warehouse_once, tmp / "wh")
    (tmp / "dh").mkdir()
    return tmp, env_for(tmp)


def _history_is_clean(tmp) -> tuple[int, int]:
    with duckdb.connect(str(tmp / "wh" / "ragpipe.duckdb"), read_only=True) as conn:
        dupes = conn.execute(
            "SELECT count(*) FROM (SELECT answer_id, grader_version, answer_sha FROM grade_history GROUP BY ALL HAVING count(*) > 1)"
        ).fetchall()[0][0]
        grades = conn.execute("SELECT count(*) FROM grades").fetchall()[0][0]
        answers = conn.execute("SELECT count(*) FROM answers").fetchall()[0][0]
    assert dupes == 0 and grades == answers
    return grades, answers


def test_a_second_writer_waits_then_says_warehouse_busy(warehouse):
    tmp, env = warehouse
    with writing(tmp / "wh", "a long regrade in another terminal"):
        busy = ragpipe({**env, "RAGPIPE_LOCK_WAIT": "1"}, "regrade", timeout=120)
    assert busy.returncode == 3
    said = busy.stdout + busy.stderr
    assert (
        "warehouse busy" in said and "a long regrade in another terminal" in said and f"process {os.getpid()}" in said
    )
    _history_is_clean(tmp)


@pytest.mark.end_to_end
def test_two_regrades_at_once_both_finish_and_lose_nothing(warehouse):
    tmp, env = warehouse
    first, second = start(env, "regrade"), start(env, "regrade")
    outs = [p.communicate(timeout=300) for p in (first, second)]
    assert (first.returncode, second.returncode) == (0, 0), outs
    _history_is_clean(tmp)


@pytest.mark.end_to_end
def test_a_regrade_while_a_long_sql_query_runs(warehouse):
    tmp, env = warehouse
    # no step here waits a guessed time: the regrade starts once the reader holds the file (an event), and
    # both bounds are generous, since on a loaded machine the count takes many times what it takes idle
    query = start(
        env,
        "sql",
        "--timeout",
        "900",
        "SELECT count(*) AS n FROM range(1500000000) r, (SELECT 1 FROM grades LIMIT 1) g WHERE r.range % 7 = 3",
    )
    wait_until_open(query, tmp / "wh" / "ragpipe.duckdb")  # the query has the warehouse open (read-only)
    regrade = ragpipe({**env, "RAGPIPE_LOCK_WAIT": "900"}, "regrade", timeout=1200)
    out, err = query.communicate(timeout=1200)
    assert query.returncode == 0 and "214285714" in out, err  # the reader finished its answer
    assert regrade.returncode == 0, regrade.stdout + regrade.stderr  # the writer waited for it
    _history_is_clean(tmp)


def test_read_only_commands_never_take_the_write_lock(warehouse, tmp_path):
    tmp, env = warehouse
    with writing(tmp / "wh", "a writer that holds the lock"):  # a writer between DuckDB steps
        assert ragpipe(env, "sql", "SELECT count(*) FROM grades", timeout=60).returncode == 0
        assert ragpipe(env, "scorecard", "--json", timeout=60).returncode == 0
        assert (
            ragpipe(env, "review", "--corpus", "demo", "--out", str(tmp_path / "r.html"), timeout=120).returncode == 0
        )


def test_a_reader_waits_a_bounded_time_while_a_writer_holds_the_file(warehouse):
    tmp, env = warehouse
    conn = duckdb.connect(str(tmp / "wh" / "ragpipe.duckdb"))  # this process writes: DuckDB's file lock is held
    try:
        busy = ragpipe({**env, "RAGPIPE_LOCK_WAIT": "1"}, "sql", "SELECT 1", timeout=60)
    finally:
        conn.close()
    assert busy.returncode == 3 and "warehouse busy" in busy.stdout + busy.stderr
    assert ragpipe(env, "sql", "SELECT 1", timeout=60).returncode == 0  # and works once the writer is done
