"""Runs a `ragpipe` command starts appear in the UI like its own: on the Overview's timeline, under their
job (it once said "No runs or scheduled ticks in this time period" right after `make run`: a run made
by `execute_in_process` has no origin in the workspace, assets/runs/ui_origin.py)."""

from __future__ import annotations

import json
import os
import signal
import urllib.request

import pytest

from tests.browser import chromium, new_page
from tests.commands import env_for, free_port, ragpipe, start_dagster_dev, wait_for_ui

RUNS = "{ runsOrError { ... on Runs { results { jobName repositoryOrigin { repositoryLocationName } } } } }"


def _runs(port: int) -> list[dict]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/graphql",
        data=json.dumps({"query": RUNS}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as reply:
        return json.load(reply)["data"]["runsOrError"]["results"]


@pytest.mark.end_to_end
def test_a_cli_regrade_is_on_the_overview_timeline_under_its_job(demo_warehouse, tmp_path):
    (tmp_path / "dagster_home").mkdir()
    env = env_for(tmp_path, RAGPIPE_WAREHOUSE=str(demo_warehouse))
    env["DAGSTER_HOME"] = str(tmp_path / "dagster_home")
    done = ragpipe(env, "regrade")
    assert done.returncode == 0, done.stdout + done.stderr
    port = free_port()
    ui = start_dagster_dev(env, port)
    try:
        wait_for_ui(ui, port, env)
        with chromium() as browser:
            page = new_page(browser)
            page.goto(f"http://127.0.0.1:{port}/overview/activity/timeline")
            page.get_by_text("regrade_pairs").first.wait_for()  # the bound only catches a hang
            shown = " ".join(page.inner_text("body").split())
        runs = _runs(port)
    finally:
        os.killpg(ui.pid, signal.SIGKILL)
        ui.wait(timeout=60)
    assert "No runs or scheduled ticks" not in shown and "assets.definitions:defs" in shown, shown
    assert [r["jobName"] for r in runs] == ["regrade_pairs"]
    assert runs[0]["repositoryOrigin"] == {"repositoryLocationName": "assets.definitions:defs"}
