"""Rule verdicts materialized alone (as the UI's Materialize does after a rules change) bring the pair's
judgments and grades along, and grades its scorecards, agreement, delta and review report; the grades'
run says what the grading flipped, by direction; a run that already planned them (`ragpipe run`,
`ragpipe regrade`) brings nothing more. Grades materialized alone on rule verdicts of other rules (or of
other answers) grade those again with the loaded rules first, and say so: one click regrades. Evaluated
as the Dagster daemon's sensor evaluates it, on a real instance's event log."""

from __future__ import annotations

import shutil

import duckdb
from dagster import AssetKey, DagsterInstance, Definitions, evaluate_automation_conditions

from assets.definitions import built
from assets.runs.runner import regrade_in_one_run, regrade_pair, run_corpus
from assets.shared.automation import GRADED_FROM_VERDICTS, READERS
from assets.shared.partitions import pair_key
from ragpipe.grading.rules import DEFAULT_RULES
from ragpipe.history.delta import event_delta
from tests.conftest import warehouse_resources

defs = built()  # loaded as Dagster loads them (assets.definitions:defs)

KEY = pair_key("demo", "default")


def _requested(result) -> set[str]:
    names = (*GRADED_FROM_VERDICTS, *READERS)
    return {name for name in names if KEY in result.get_requested_partitions(AssetKey(name))}


def _alone(instance, resources, *names: str):
    """What the UI launches for these assets and one partition: those assets, their checks, nothing else."""
    bound = Definitions(
        assets=list(defs.assets),
        asset_checks=list(defs.asset_checks),
        resources=resources,
    )
    job = bound.resolve_implicit_global_asset_job_def().get_subset(asset_selection={AssetKey(n) for n in names})
    return job.execute_in_process(instance=instance, partition_key=KEY, raise_on_error=False)


def _grades_metadata(result) -> dict:
    (event,) = [e for e in result.get_asset_materialization_events() if e.asset_key == AssetKey("grades")]
    return {k: v.value for k, v in event.materialization.metadata.items()}


def test_rule_verdicts_alone_bring_grades_and_what_reads_them_and_say_their_flips(tmp_path):
    instance = DagsterInstance.ephemeral()
    resources = warehouse_resources(tmp_path)
    assert all(r.success for r in run_corpus("demo", ["default"], instance=instance, resources=resources))
    after_run = evaluate_automation_conditions(defs=defs, instance=instance)
    assert _requested(after_run) == set()  # the run planned them all

    candidate = tmp_path / "candidate.yaml"  # the extractive engine's "could not find" stops declining
    candidate.write_text(DEFAULT_RULES.read_text().replace("    - could not find\n", ""))
    under_candidate = warehouse_resources(tmp_path, rules_path=candidate)
    clicked = tmp_path / "clicked"  # grades alone, as a click on its node launches it, on a copy of the warehouse
    shutil.copytree(tmp_path, clicked, ignore=shutil.ignore_patterns("clicked", "candidate.yaml"))
    one_click = _alone(DagsterInstance.ephemeral(), warehouse_resources(clicked, rules_path=candidate), "grades")
    assert one_click.success  # it once failed with a trace: "materialize rule_verdicts first"
    made = {e.asset_key.to_user_string() for e in one_click.get_asset_materialization_events()}
    assert made == {"rule_verdicts", "grades"} and _grades_metadata(one_click)["flipped"] >= 4

    assert _alone(instance, under_candidate, "rule_verdicts").success
    after_verdicts = evaluate_automation_conditions(defs=defs, instance=instance, cursor=after_run.cursor)
    # judgments and grades after the rule verdicts, and (Dagster counts a dependency requested in the same
    # tick as updated) what reads the grades after them: the whole chain in the sensor's one run
    assert _requested(after_verdicts) == set(GRADED_FROM_VERDICTS) | set(READERS)
    alone = _alone(instance, under_candidate, *GRADED_FROM_VERDICTS, *READERS)  # the run the sensor asks for
    assert alone.success
    said = _grades_metadata(alone)
    assert said["flipped"] >= 4 and said["monotone"] is False
    assert "correct -> wrong" in said["flips"]
    with duckdb.connect(str(tmp_path / "ragpipe.duckdb"), read_only=True) as conn:
        assert event_delta(conn, "demo", "default")["changed"] == said["flipped"]  # what `ragpipe delta` says

    after_grades = evaluate_automation_conditions(defs=defs, instance=instance, cursor=after_verdicts.cursor)
    assert _requested(after_grades) == set()  # that run planned them all

    regraded = regrade_pair("demo", "default", instance=instance, resources=resources)
    assert regraded.success and _grades_metadata(regraded)["flipped"] == said["flipped"]  # the way back
    after_regrade = evaluate_automation_conditions(defs=defs, instance=instance, cursor=after_grades.cursor)
    assert _requested(after_regrade) == set()

    # the one-run regrade records every stage of the pair in its run: nothing is left for the sensor
    in_one = regrade_in_one_run([("demo", "default")], instance=instance, resources=under_candidate)
    assert in_one.success and _grades_metadata(in_one)["flipped"] == said["flipped"]
    after_one_run = evaluate_automation_conditions(defs=defs, instance=instance, cursor=after_regrade.cursor)
    assert _requested(after_one_run) == set()


def test_grades_on_rule_verdicts_of_other_answers_grade_them_again_first(tmp_path):
    """Grades never combine verdicts with answers they were not read from: answers changed since the rule
    verdicts (here one removed behind the pipeline's back) have their verdicts graded again first."""
    instance = DagsterInstance.ephemeral()
    resources = warehouse_resources(tmp_path)
    assert all(r.success for r in run_corpus("demo", ["default"], instance=instance, resources=resources))
    with duckdb.connect(str(tmp_path / "ragpipe.duckdb")) as conn:
        conn.execute("DELETE FROM answers WHERE answer_id = (SELECT min(answer_id) FROM answers)")
    graded = _alone(instance, resources, "grades")
    assert graded.success
    (event,) = [e for e in graded.get_asset_materialization_events() if e.asset_key == AssetKey("rule_verdicts")]
    assert "of other answers than the stored ones" in event.materialization.metadata["graded_by"].value
    with duckdb.connect(str(tmp_path / "ragpipe.duckdb"), read_only=True) as conn:
        counts = conn.execute("SELECT (SELECT count(*) FROM answers), (SELECT count(*) FROM grades)").fetchone()
    assert counts[0] == counts[1]
