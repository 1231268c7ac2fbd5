"""The UI's warning that pairs were graded by another grader clears once they are regraded, without a click
on "Reload definitions" (it once outlived the fix beside a green check): `make dev`'s webserver reloads its
definitions when the warehouse is graded again (assets/deploy/definitions_watch.py)."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request

import pytest

from ragpipe.grading.rules import DEFAULT_RULES
from tests.commands import dev_log_tail, env_for, free_port, ragpipe, start_dagster_dev

DESCRIPTION = '{ assetNodeOrError(assetKey: {path: ["scorecards"]}) { ... on AssetNode { description } } }'
WARNING = "\u26a0 As the definitions loaded"


def _description(port: int) -> str | None:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/graphql",
        data=json.dumps({"query": DESCRIPTION}).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.load(reply)["data"]["assetNodeOrError"].get("description")
    except OSError:
        return None  # the webserver not up yet, or reloading


def _until(port: int, shown: bool, deadline: float) -> str:
    """The scorecards' description once it does (or does not) lead with the warning; the bound only
    catches a hang."""
    said = None
    while time.monotonic() < deadline:
        said = _description(port)
        if said is not None and (WARNING in said) == shown:
            return said
        time.sleep(1)
    raise AssertionError(f"the warning {'never showed' if shown else 'never cleared'}: {said!r}")


@pytest.mark.end_to_end
def test_the_behind_warning_clears_after_a_regrade_without_reloading_by_hand(demo_warehouse, tmp_path):
    candidate = tmp_path / "candidate.yaml"  # the extractive engine's "could not find" stops declining
    candidate.write_text(DEFAULT_RULES.read_text().replace("    - could not find\n", ""))
    (tmp_path / "dagster_home").mkdir()
    env = env_for(tmp_path, RAGPIPE_WAREHOUSE=str(demo_warehouse), RAGPIPE_RULES=str(candidate))
    env["DAGSTER_HOME"] = str(tmp_path / "dagster_home")
    port = free_port()
    ui = start_dagster_dev(env, port)
    try:
        before = _until(port, True, time.monotonic() + 600)
        assert "1 of 1 pairs' scorecards are by another grader" in before, before
        done = ragpipe(env, "regrade")  # from a terminal, beside the running UI
        assert done.returncode in (0, 1), done.stdout + done.stderr  # 1: a money figure blocked, said
        after = _until(port, False, time.monotonic() + 600)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{dev_log_tail(env)}") from None
    finally:
        os.killpg(ui.pid, signal.SIGKILL)
        ui.wait(timeout=60)
    assert after.startswith("The pair's scorecards") or WARNING not in after
