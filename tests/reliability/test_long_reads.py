"""A long read no longer blocks writers for minutes: `ragpipe sql` stops at --timeout, and a writer
waits RAGPIPE_LOCK_WAIT on DuckDB's own file lock, then exits 3 naming who holds it."""

from __future__ import annotations

import shutil

import pytest

from tests.commands import env_for, ragpipe, start, wait_until_open

LONG_QUERY = "SELECT count(*) FROM range(1000000000000) a"  # minutes of counting


@pytest.fixture()
def env(tmp_path, demo_warehouse_once):
    shutil.copytree(demo_warehouse_once, tmp_path / "wh")
    (tmp_path / "dh").mkdir()
    return env_for(tmp_path)


def test_a_long_query_stops_at_its_timeout(env):
    # the subprocess timeout is the hang detector: unbounded, this query runs for minutes
    out = ragpipe(env, "sql", "--timeout", "1", LONG_QUERY, timeout=60)
    assert out.returncode == 1 and "query stopped after 1 s" in out.stdout


@pytest.mark.end_to_end
def test_a_writer_behind_a_long_read_waits_its_lock_wait_then_says_who(env):
    reader = start(env, "sql", "--timeout", "3600", LONG_QUERY)  # killed below: it outlives the writer
    try:
        wait_until_open(reader, env["RAGPIPE_WAREHOUSE"] + "/ragpipe.duckdb")  # the reader has the file
        # the writer gives up after its own wait and says so; the bound only catches a hang (it once went on
        # retrying for minutes past its wait)
        out = ragpipe({**env, "RAGPIPE_LOCK_WAIT": "3"}, "regrade", timeout=600)
    finally:
        reader.kill()
        reader.wait()
    said = out.stdout + out.stderr
    assert out.returncode == 3, said[-2000:]
    assert "warehouse busy" in said and f"process {reader.pid}" in said and "waited 3 s" in said
    assert "Traceback" not in said
