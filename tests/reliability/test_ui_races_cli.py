"""A run from the Dagster side (no ragpipe lock, no ragpipe tags, as the UI launches it) racing a CLI
regrade of the same pair: both finish, their writes take turns on DuckDB's file lock, and the ledger
records both gradings with history still matching grades."""

from __future__ import annotations

import os
import subprocess
import sys

import duckdb
import pytest
from dagster import DagsterInstance

from assets.runs.runner import run_corpus
from tests.conftest import ROOT, warehouse_resources
from tests.end_to_end.test_ledger import assert_history_matches_grades


@pytest.mark.end_to_end
def test_a_dagster_run_and_a_cli_regrade_of_one_pair_at_once(tmp_path):
    # the home a run has used, as a user's is: two processes that both create a new home's SQLite schema at
    # the same instant race in Dagster's own run storage, which does not retry (ragpipe's commands take
    # turns there under a lock, assets/runs/orchestrator.py, but Dagster's CLI knows nothing of it)
    (tmp_path / "dh").mkdir()
    with DagsterInstance.local_temp(str(tmp_path / "dh")) as instance:
        assert all(
            r.success
            for r in run_corpus("demo", ["default"], instance=instance, resources=warehouse_resources(tmp_path / "wh"))
        )
    env = {**os.environ, "RAGPIPE_WAREHOUSE": str(tmp_path / "wh"), "DAGSTER_HOME": str(tmp_path / "dh")}
    with duckdb.connect(str(tmp_path / "wh" / "ragpipe.duckdb"), read_only=True) as conn:
        before = conn.execute("SELECT count(*) FROM grading_events").fetchall()[0][0]
    bin_dir = os.path.dirname(sys.executable)
    ui = subprocess.Popen(
        [
            f"{bin_dir}/dagster",
            "asset",
            "materialize",
            "-m",
            "assets.definitions",
            "--select",
            "grades,scorecards,grade_delta",
            "--partition",
            "default|demo",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    cli = subprocess.Popen(
        [f"{bin_dir}/ragpipe", "regrade"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    ui_out, ui_err = ui.communicate(timeout=300)
    cli_out, cli_err = cli.communicate(timeout=300)
    assert ui.returncode == 0, ui_err[-3000:]
    assert cli.returncode == 0, (cli_out + cli_err)[-3000:]
    with duckdb.connect(str(tmp_path / "wh" / "ragpipe.duckdb"), read_only=True) as conn:
        events = conn.execute(
            "SELECT seq, run_id FROM grading_events WHERE corpus = 'demo' AND config = 'default' ORDER BY seq"
        ).fetchall()
        assert len(events) == before + 2 and len({r for _, r in events}) == len(
            events
        )  # one event per grading, none lost
        assert_history_matches_grades(conn)
        grades, answers = (
            conn.execute(f"SELECT count(*) FROM {t} WHERE corpus = 'demo' AND config = 'default'").fetchall()[0][0]
            for t in ("grades", "answers")
        )
        assert grades == answers
    assert not list((tmp_path / "wh" / "shards").rglob("run=*"))
