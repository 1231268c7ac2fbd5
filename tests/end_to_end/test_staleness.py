"""Staleness as the Dagster UI shows it: a rules change stales grades and everything computed from
them on reload; a rerun that changes no content stales nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import duckdb
import pytest
from dagster import DagsterInstance

from assets.runs.runner import regrade_pair, run_corpus
from ragpipe.grading.rules import DEFAULT_RULES, load_rules
from ragpipe.history.behind import behind
from tests.browser import chromium, new_page
from tests.commands import free_port, start_dagster_dev
from tests.conftest import ROOT, warehouse_resources
from tests.staleness_probe import statuses

GRADING = {"rule_verdicts", "grades", "scorecards", "agreement", "grade_delta", "review_report"}


def _asset(name: str) -> str:
    return name.split("[")[0]


def test_a_rerun_that_changes_nothing_stales_no_other_partition(tmp_path):
    instance = DagsterInstance.ephemeral()
    resources = warehouse_resources(tmp_path)
    first = run_corpus("demo", ["default", "wide-k"], instance=instance, resources=resources)
    assert all(r.success for r in first)
    # named like the command's steps in the run list, not `__ephemeral_asset_job__`
    assert [instance.get_run_by_id(r.run_id).job_name for r in first] == ["corpus", "pair", "pair"]
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
            "from assets.runs.runner import run_corpus; from dagster import DagsterInstance; "
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
    # and where people look: `dagster dev` (webserver and daemon) loads the candidate, the grader_watch
    # sensor evaluates graded_by_current_grader, and grades' and scorecards' pages (and the graph) warn
    port = free_port()
    ui = start_dagster_dev({**env, "RAGPIPE_RULES": str(candidate)}, port)
    try:
        shown = _warning_shown(port, time.monotonic() + 600)  # bounds for a hang: a loaded machine is slow
        observed = _observed(port, "grades", "default|demo", time.monotonic() + 600)
        old, new = load_rules(DEFAULT_RULES).version, load_rules(candidate).version
        said_on_panel = f"graded_by {old} current_grader {new} to_regrade ragpipe regrade"
        panel = _partition_panel(port, "grades", "default|demo", (said_on_panel, "Unsynced"))
        catalog, overview = _where_a_user_looks_first(port)
        # rule verdicts materialized alone, as the UI's Materialize launches them: the after_grading sensor
        # brings the pair's judgments, grades and their readers along in a run of its own, whose grades say
        # the flips by direction
        launched = _graphql(port, LAUNCH_RULE_VERDICTS)["launchRun"]["run"]["runId"]
        followed = _run_by_sensor(port, "after_grading", time.monotonic() + 600)
        said = _latest_metadata(port, "grades")
        named = _tags_once(port, launched, "ragpipe/command", time.monotonic() + 600)
        follows = _tags_once(port, followed["runId"], "ragpipe/follows", time.monotonic() + 600)
    finally:
        # what the test checks is read; how `dagster dev` shuts down is not under test (in the suite its
        # graceful shutdown ran into the 300 s bound once set for it: the test took 324 s there, 25 s alone)
        os.killpg(ui.pid, signal.SIGKILL)
        ui.wait(timeout=60)
    assert followed["status"] == "SUCCESS"
    assert {a["path"][0] for a in followed["assetSelection"]} == {
        "judgments",
        "grades",
        "scorecards",
        "agreement",
        "grade_delta",
        "review_report",
    }
    assert said["flipped"] >= 4 and "correct -> wrong" in said["flips"]
    # the click's run is named as the CLI's runs are, and the follow-up says whose grading it follows
    assert named["ragpipe/command"] == "UI: materialize rule_verdicts [default|demo]"
    assert follows["ragpipe/follows"] == launched and follows["ragpipe/command"].startswith("after_grading")
    # the pair's partition, selected in the partition list, says which grader made it and how to regrade
    assert observed["metadata"] == {"graded_by": old, "current_grader": new, "to_regrade": observed["to_regrade"]}
    assert "ragpipe regrade" in observed["to_regrade"]
    assert said_on_panel in panel and "Unsynced" in panel
    # where a user looks first, at the default zoom: the Catalog's grades row and the asset's Overview lead with it
    warning = (
        f"\u26a0 As the definitions loaded: 1 of 1 pairs' grades are by another grader than the one loaded ({new})"
    )
    assert warning in catalog and "earlier" not in catalog
    assert warning in overview and "ragpipe regrade" in overview
    for asset, execution in shown.items():
        assert execution["status"] == "FAILED", execution  # of severity ERROR: the node turns red (behind.py)
        assert execution["evaluation"]["severity"] == "ERROR", execution
        assert "1 of 1 pairs' " + asset in execution["evaluation"]["description"], execution
        assert load_rules(candidate).version in execution["evaluation"]["description"]


def test_behind_names_the_pairs_another_grader_graded(demo_warehouse, tmp_path):
    """The finding behind `graded_by_current_grader`: none behind after a run, every pair behind under a
    candidate grader, and the scorecards too; regrading with it brings both up to date."""
    current = load_rules().version
    candidate = tmp_path / "candidate.yaml"
    candidate.write_text(DEFAULT_RULES.read_text().replace("    - could not find\n", ""))
    other = load_rules(candidate).version
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        fresh, late = behind(conn, "grades", current), behind(conn, "scorecards", other)
    assert fresh.passed and fresh.pairs == 1 and "current grader" in fresh.description()
    assert not late.passed and late.behind == [
        {"pair": "demo/default", "corpus": "demo", "config": "default", "graded_by": [current], "loaded": other}
    ]
    (note,) = late.per_pair()
    assert note[:2] == ("demo", "default") and note[3]["graded_by"] == current and note[3]["current_grader"] == other
    assert late.metadata()["pairs_behind"] == 1 and "`ragpipe regrade`" in late.description()
    # a candidate rules file is not "an earlier grader": the words hold either way
    assert "by another grader than the one loaded" in late.description() and "earlier" not in late.description()
    instance = DagsterInstance.ephemeral()
    result = regrade_pair(
        "demo", "default", instance=instance, resources=warehouse_resources(demo_warehouse, rules_path=candidate)
    )
    assert instance.get_run_by_id(result.run_id).job_name == "regrade"
    checks = {(e.asset_key.to_user_string(), e.check_name): e.passed for e in result.get_asset_check_evaluations()}
    assert checks[("grades", "graded_by_current_grader")] and checks[("scorecards", "graded_by_current_grader")]
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        assert behind(conn, "grades", other).passed and behind(conn, "scorecards", other).passed


def test_grades_refuse_rule_verdicts_of_other_rules_or_other_answers(demo_warehouse, tmp_path):
    """The one test of "are the stored rule verdicts current?" (`stale_rule_verdicts`, shared by the grades
    asset and `ragpipe judge export`): current after a run; under a candidate grader the grades asset refuses,
    naming both rule versions; verdicts of other answers are refused too."""
    from assets.grading.grades import StaleRuleVerdicts, grades_of
    from ragpipe.history.behind import stale_rule_verdicts
    from ragpipe.warehouse.tables import read_partition

    keys = {"corpus": "demo", "config": "default"}
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        verdicts, answers = read_partition(conn, "rule_verdicts", keys), read_partition(conn, "answers", keys)
    current = load_rules().version
    assert stale_rule_verdicts(verdicts, answers, current) is None
    assert stale_rule_verdicts(None, answers, current) == "no rule verdicts are stored"
    assert "of other answers" in stale_rule_verdicts(verdicts.iloc[1:], answers, current)
    candidate = tmp_path / "candidate.yaml"
    candidate.write_text(DEFAULT_RULES.read_text().replace("    - could not find\n", ""))
    resources = warehouse_resources(demo_warehouse, rules_path=candidate)
    other = resources["project"].rules_alone().version
    with pytest.raises(StaleRuleVerdicts) as refused:
        grades_of(resources["duckdb"], resources["project"], "demo", "default", None, "a-run")
    said = str(refused.value)
    assert said.startswith("demo/default: the stored rule verdicts are by other rules")
    assert current in said and other in said and "materialize rule_verdicts first" in said


CHECKS_QUERY = """query ($path: [String!]!) { assetNodeOrError(assetKey: {path: $path}) { ... on AssetNode {
  assetChecksOrError { ... on AssetChecks { checks { name
    executionForLatestMaterialization { status evaluation { severity description } } } } } } } }"""


def _graphql(port: int, query: str, variables: dict | None = None) -> dict:
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/graphql", data=body, headers={"Content-Type": "application/json"}
    )
    return json.load(urllib.request.urlopen(request, timeout=30))["data"]


def _checks_in_the_ui(port: int, asset: str) -> dict:
    """`graded_by_current_grader` on `asset` as the asset's page asks the webserver for it."""
    node = _graphql(port, CHECKS_QUERY, {"path": [asset]})["assetNodeOrError"]
    return {c["name"]: c["executionForLatestMaterialization"] for c in node["assetChecksOrError"]["checks"]}


# what the UI sends for Materialize on `grades` with the pair demo/default selected
LAUNCH_RULE_VERDICTS = """mutation { launchRun(executionParams: {
  selector: {repositoryLocationName: "assets.definitions:defs", repositoryName: "__repository__",
             jobName: "__ASSET_JOB", assetSelection: [{path: ["rule_verdicts"]}], assetCheckSelection: []},
  executionMetadata: {tags: [{key: "dagster/partition", value: "default|demo"},
    {key: "dagster/partition/config", value: "default"}, {key: "dagster/partition/corpus", value: "demo"}]},
  mode: "default", runConfigData: "{}"}) { __typename ... on LaunchRunSuccess { run { runId } } } }"""
RUNS = """{ runsOrError(limit: 20) { ... on Runs { results { runId status tags { key value } assetSelection { path } } } } }"""
RUN_TAGS = """query ($id: ID!) { runOrError(runId: $id) { ... on Run { tags { key value } } } }"""


def _tags_once(port: int, run_id: str, tag: str, deadline: float) -> dict:
    """The run's tags once `tag` is among them (the name_ui_runs sensor adds it as the run starts)."""
    tags: dict = {}
    while time.monotonic() < deadline:
        run = _graphql(port, RUN_TAGS, {"id": run_id})["runOrError"]
        tags = {t["key"]: t["value"] for t in run.get("tags", [])}
        if tag in tags:
            return tags
        time.sleep(1)
    raise AssertionError(f"run {run_id} never tagged {tag}: {tags}")


METADATA = """query ($path: [String!]!) { assetNodeOrError(assetKey: {path: $path}) { ... on AssetNode {
  assetMaterializations(limit: 1) { metadataEntries { label ... on IntMetadataEntry { intValue }
    ... on MarkdownMetadataEntry { mdStr } } } } } }"""


def _run_by_sensor(port: int, sensor: str, deadline: float) -> dict:
    """The run `sensor` launched, once it has finished (the event waited on; the deadline catches a hang)."""
    while time.monotonic() < deadline:
        for run in _graphql(port, RUNS)["runsOrError"]["results"]:
            tags = {t["key"]: t["value"] for t in run["tags"]}
            if tags.get("dagster/sensor_name") == sensor and run["status"] in ("SUCCESS", "FAILURE", "CANCELED"):
                return run
        time.sleep(1)
    raise AssertionError(f"no finished run from {sensor} in time")


def _latest_metadata(port: int, asset: str) -> dict:
    node = _graphql(port, METADATA, {"path": [asset]})["assetNodeOrError"]
    (latest,) = node["assetMaterializations"]
    return {e["label"]: e.get("intValue", e.get("mdStr")) for e in latest["metadataEntries"]}


OBSERVATIONS = """query ($path: [String!]!) { assetNodeOrError(assetKey: {path: $path}) { ... on AssetNode {
  assetObservations(limit: 20) { partition metadataEntries { label ... on TextMetadataEntry { text } } } } } }"""


def _observed(port: int, asset: str, partition: str, deadline: float) -> dict:
    """The grader_watch sensor's observation on one partition of `asset`, once recorded."""
    while time.monotonic() < deadline:
        node = _graphql(port, OBSERVATIONS, {"path": [asset]})["assetNodeOrError"]
        for seen in node["assetObservations"]:
            if seen["partition"] == partition:
                meta = {e["label"]: e.get("text") for e in seen["metadataEntries"]}
                return {"metadata": meta, "to_regrade": meta.get("to_regrade", "")}
        time.sleep(1)
    raise AssertionError(f"no observation on {asset} {partition} in time")


def _partition_panel(port: int, asset: str, partition: str, shows: tuple[str, ...]) -> str:
    """The text of `asset`'s partition list with `partition` selected, as Chromium shows it once it shows
    every one of `shows` (or the wait's bound passes: the caller's assertion then says what it did show).
    Each part of the panel arrives in a query of its own: on a busy machine the observation showed before
    the status badge, and a text read at the first of them lacked the second."""
    from playwright.sync_api import TimeoutError as Hang

    with chromium() as browser:
        page = new_page(browser, viewport={"width": 1600, "height": 1200})
        page.goto(f"http://127.0.0.1:{port}/assets/{asset}?view=partitions&partition={partition.replace('|', '%7C')}")
        try:
            page.wait_for_function(
                "parts => parts.every(p => document.body.innerText.replace(/\\s+/g, ' ').includes(p))", arg=list(shows)
            )
        except Hang:
            pass
        return " ".join(page.inner_text("body").split())


def _where_a_user_looks_first(port: int) -> tuple[str, str]:
    """The Catalog's `grades` row and the grades asset's Overview, as Chromium shows them at the default zoom."""
    from playwright.sync_api import TimeoutError as Hang

    with chromium() as browser:
        page = new_page(browser)  # the default viewport and zoom
        page.goto(f"http://127.0.0.1:{port}/assets")
        page.get_by_text("\u26a0 As the definitions loaded").first.wait_for()  # the row under `grades`
        catalog = " ".join(page.inner_text("body").split())
        page.goto(f"http://127.0.0.1:{port}/assets/grades")
        try:  # the description arrives with the asset's definition, after the page's frame
            page.get_by_text("Verdict (correct/partial/wrong)").first.wait_for(timeout=120_000)
        except Hang:
            pass  # the assertion then says what it did show
        overview = " ".join(page.inner_text("body").split())
    return catalog, overview


def _warning_shown(port: int, deadline: float) -> dict[str, dict]:
    """Poll the webserver until the grader_watch sensor's evaluation shows on grades and scorecards."""
    last: dict = {}
    while time.monotonic() < deadline:
        try:
            last = {a: _checks_in_the_ui(port, a).get("graded_by_current_grader") for a in ("grades", "scorecards")}
            # the event is the warning itself: a check that passed has a severity too, and an evaluation
            # from before the candidate rules were loaded once ended the wait early
            if all(v and v["status"] == "FAILED" for v in last.values()):
                return last
        except OSError:
            pass  # the webserver is still starting
        time.sleep(1)
    raise AssertionError(f"no warning in the UI in time: {last}")
