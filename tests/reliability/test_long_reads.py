"""A long read no longer blocks writers for minutes: `ragpipe sql` stops at --timeout, and a writer
waits RAGPIPE_LOCK_WAIT on DuckDB's own file lock, then exits 3 naming who holds it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

from tests.conftest import ROOT

LONG_QUERY = "SELECT count(*) FROM range(1000000000000) a"  # minutes of counting


@pytest.fixture()
def env(tmp_path, demo_warehouse_once):
    shutil.copytree(demo_warehouse_once, tmp_path / "wh")
    (tmp_path / "dh").mkdir()
    return {**os.environ, "RAGPIPE_WAREHOUSE": str(tmp_path / "wh"), "DAGSTER_HOME": str(tmp_path / "dh")}


def _ragpipe(*args):
    return [f"{os.path.dirname(sys.executable)}/ragpipe", *args]


def test_a_long_query_stops_at_its_timeout(env):
    # the subprocess timeout is the hang detector: unbounded, this query runs for minutes
    out = subprocess.run(
        _ragpipe("sql", "--timeout", "1", LONG_QUERY), cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 1 and "query stopped after 1 s" in out.stdout


def test_a_writer_behind_a_long_read_waits_its_lock_wait_then_says_who(env):
    reader = subprocess.Popen(
        _ragpipe("sql", "--timeout", "120", LONG_QUERY),
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        time.sleep(3)  # the reader has the file
        assert reader.poll() is None
        # within 90 s, or the writer went back to retrying for minutes (107 s before this fix)
        out = subprocess.run(
            _ragpipe("regrade"),
            cwd=ROOT,
            env={**env, "RAGPIPE_LOCK_WAIT": "3"},
            capture_output=True,
            text=True,
            timeout=90,
        )
    finally:
        reader.kill()
        reader.wait()
    said = out.stdout + out.stderr
    assert out.returncode == 3, said[-2000:]
    assert "warehouse busy" in said and f"process {reader.pid}" in said
    assert "Traceback" not in said
