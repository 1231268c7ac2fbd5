"""Staleness as the Dagster UI shows it: a rules change stales grades and everything computed from
them on reload; a rerun that changes no content stales nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from dagster import DagsterInstance

from assets.runner import run_corpus
from ragpipe.grading.rules import DEFAULT_RULES
from tests.conftest import ROOT, warehouse_resources
from tests.staleness_probe import statuses

GRADING = {"grades", "scorecards", "agreement", "grade_delta", "review_report"}


def _asset(name: str) -> str:
    return name.split("[")[0]


def test_a_rerun_that_changes_nothing_stales_no_other_partition(tmp_path):
    instance = DagsterInstance.ephemeral()
    resources = warehouse_resources(tmp_path)
    assert all(r.success for r in run_corpus("demo", ["default", "wide-k"], instance=instance, resources=resources))
    assert set(statuses(instance, "demo", ["default", "wide-k"]).values()) == {"FRESH"}
    # the corpus stages run again (every PDF reused), and one configuration: wide-k must stay fresh
    assert all(r.success for r in run_corpus("demo", ["default"], instance=instance, resources=resources))
    after = statuses(instance, "demo", ["default", "wide-k"])
    assert {k: v for k, v in after.items() if v != "FRESH"} == {}


@pytest.mark.end_to_end
def test_a_rules_change_stales_grades_and_all_that_follows_on_reload(tmp_path):
    home = tmp_path / "dagster_home"
    home.mkdir()
    env = {**os.environ, "DAGSTER_HOME": str(home), "RAGPIPE_WAREHOUSE": str(tmp_path / "wh")}
    env.pop("RAGPIPE_RULES", None)
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from assets.runner import run_corpus; from dagster import DagsterInstance; "
            "assert all(r.success for r in run_corpus('demo', ['default'], instance=DagsterInstance.get()))",
        ],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=600,
    )

    def probe(rules=None) -> dict[str, str]:
        run_env = {**env, **({"RAGPIPE_RULES": str(rules)} if rules else {})}
        out = subprocess.run(
            [sys.executable, "-m", "tests.staleness_probe", str(home), "demo", "default"],
            cwd=ROOT,
            env=run_env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        return json.loads(out.stdout)

    assert set(probe().values()) == {"FRESH"}
    candidate = tmp_path / "candidate.yaml"
    candidate.write_text(DEFAULT_RULES.read_text().replace("    - could not find\n", ""))
    changed = probe(candidate)
    assert {_asset(k) for k, v in changed.items() if v == "STALE"} == GRADING
    assert all(v == "FRESH" for k, v in changed.items() if _asset(k) not in GRADING)
