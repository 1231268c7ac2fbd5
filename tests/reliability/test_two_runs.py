"""Two `ragpipe run` of the same corpus at once: the second waits for the first's write lock, both
finish, and the warehouse holds each answer once, graded once per run, in order."""

from __future__ import annotations

import os
import subprocess
import sys

import duckdb
import pytest

from tests.conftest import ROOT
from tests.end_to_end.test_ledger import assert_history_matches_grades


@pytest.mark.end_to_end
def test_two_runs_at_once_both_finish_and_nothing_is_doubled(tmp_path):
    (tmp_path / "dh").mkdir()
    env = {**os.environ, "RAGPIPE_WAREHOUSE": str(tmp_path / "wh"), "DAGSTER_HOME": str(tmp_path / "dh")}
    command = [f"{os.path.dirname(sys.executable)}/ragpipe", "run", "--corpus", "demo", "--config", "default"]
    runs = [
        subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [r.communicate(timeout=600) for r in runs]
    assert [r.returncode for r in runs] == [0, 0], [o[1][-2000:] for o in outs]
    with duckdb.connect(str(tmp_path / "wh" / "ragpipe.duckdb"), read_only=True) as conn:
        doubled = conn.execute(
            "SELECT count(*) FROM (SELECT answer_id FROM answers GROUP BY ALL HAVING count(*) > 1)"
        ).fetchall()[0][0]
        events = conn.execute("SELECT count(*), count(DISTINCT run_id) FROM grading_events").fetchall()[0]
        documents = conn.execute("SELECT count(*), count(DISTINCT doc_id) FROM documents").fetchall()[0]
        assert_history_matches_grades(conn)
    assert doubled == 0 and events == (2, 2) and documents[0] == documents[1]
