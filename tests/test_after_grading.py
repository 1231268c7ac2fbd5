"""Grades materialized alone (as the UI's Materialize does) bring the pair's scorecards, agreement, delta
and review report along, and their run says what the grading flipped, by direction; a run that already
planned them (`ragpipe run`, `ragpipe regrade`) brings nothing more. Evaluated as the Dagster daemon's
sensor evaluates it, on a real instance's event log."""

from __future__ import annotations

import duckdb
from dagster import AssetKey, DagsterInstance, Definitions, evaluate_automation_conditions

from assets.definitions import defs
from assets.runs.runner import regrade_pair, run_corpus
from assets.shared.automation import READERS
from assets.shared.partitions import pair_key
from ragpipe.grading.rules import DEFAULT_RULES
from ragpipe.history.delta import event_delta
from tests.conftest import warehouse_resources

KEY = pair_key("demo", "default")


def _requested(result) -> set[str]:
    return {name for name in READERS if KEY in result.get_requested_partitions(AssetKey(name))}


def _grades_alone(instance, resources):
    """What the UI launches for grades and one partition: that asset, its checks, nothing downstream."""
    bound = Definitions(
        assets=list(defs.assets),
        asset_checks=list(defs.asset_checks),
        resources=resources,
    )
    job = bound.resolve_implicit_global_asset_job_def().get_subset(asset_selection={AssetKey("grades")})
    return job.execute_in_process(instance=instance, partition_key=KEY, raise_on_error=False)


def _grades_metadata(result) -> dict:
    (event,) = [e for e in result.get_asset_materialization_events() if e.asset_key == AssetKey("grades")]
    return {k: v.value for k, v in event.materialization.metadata.items()}


def test_grades_alone_bring_what_reads_them_and_say_their_flips(tmp_path):
    instance = DagsterInstance.ephemeral()
    resources = warehouse_resources(tmp_path)
    assert all(r.success for r in run_corpus("demo", ["default"], instance=instance, resources=resources))
    after_run = evaluate_automation_conditions(defs=defs, instance=instance)
    assert _requested(after_run) == set()  # the run planned them all

    candidate = tmp_path / "candidate.yaml"  # the extractive engine's "could not find" stops declining
    candidate.write_text(DEFAULT_RULES.read_text().replace("    - could not find\n", ""))
    alone = _grades_alone(instance, warehouse_resources(tmp_path, rules_path=candidate))
    assert alone.success
    said = _grades_metadata(alone)
    assert said["flipped"] >= 4 and said["monotone"] is False
    assert "correct -> wrong" in said["flips"]
    with duckdb.connect(str(tmp_path / "ragpipe.duckdb"), read_only=True) as conn:
        assert event_delta(conn, "demo", "default")["changed"] == said["flipped"]  # what `ragpipe delta` says

    after_grades = evaluate_automation_conditions(defs=defs, instance=instance, cursor=after_run.cursor)
    assert _requested(after_grades) == set(READERS)

    regraded = regrade_pair("demo", "default", instance=instance, resources=resources)
    assert regraded.success and _grades_metadata(regraded)["flipped"] == said["flipped"]  # the way back
    after_regrade = evaluate_automation_conditions(defs=defs, instance=instance, cursor=after_grades.cursor)
    assert _requested(after_regrade) == set()
