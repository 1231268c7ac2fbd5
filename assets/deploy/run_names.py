"""A run launched from the UI carries a name, as the CLI's runs do (`ragpipe/command`).

A Materialize click launches Dagster's implicit asset job: its row in the runs list reads `partition:
default|demo · 2 checks`, with no job name and no tag saying what it was. The `name_ui_runs` sensor tags
each run that starts without `ragpipe/command` (`UI: materialize rule_verdicts [default|demo]`); a run the
`after_grading` sensor launches is tagged by that sensor, and here gains `ragpipe/follows`: the run whose
grading it follows, so the follow-up reads as the click's, not as an anonymous second run.
"""

from __future__ import annotations

from dagster import (
    DagsterRunStatus,
    DefaultSensorStatus,
    RunsFilter,
    RunStatusSensorContext,
    run_status_sensor,
)

from ragpipe.cli.orchestrator import COMMAND_TAG

FOLLOWS_TAG = "ragpipe/follows"
AFTER_GRADING = "after_grading"


def ui_command(run) -> str:
    """`UI: materialize rule_verdicts [default|demo]`: what the run is, from what the UI launched."""
    assets = sorted(key.to_user_string() for key in (run.asset_selection or ()))
    partition = run.tags.get("dagster/partition")
    what = ", ".join(assets) if assets else run.job_name
    return f"UI: materialize {what}" + (f" [{partition}]" if partition else "")


@run_status_sensor(
    run_status=DagsterRunStatus.STARTED,
    name="name_ui_runs",
    default_status=DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=5,
    description="Tags a run launched from the UI with `ragpipe/command` (what it materializes), and a run "
    "the after_grading sensor launched with `ragpipe/follows` (the run whose grading it follows).",
)
def name_ui_runs(context: RunStatusSensorContext):
    run = context.dagster_run
    if run.tags.get("dagster/sensor_name") == AFTER_GRADING and FOLLOWS_TAG not in run.tags:
        before = _followed(context, run)
        if before is not None:
            context.instance.add_run_tags(run.run_id, {FOLLOWS_TAG: before})
        return
    if COMMAND_TAG not in run.tags and "dagster/sensor_name" not in run.tags and "dagster/backfill" not in run.tags:
        context.instance.add_run_tags(run.run_id, {COMMAND_TAG: ui_command(run)})


def _followed(context: RunStatusSensorContext, run) -> str | None:
    """The latest run of the same partition that ended before this one started: the grading it follows."""
    partition = run.tags.get("dagster/partition")
    if not partition:
        return None
    records = context.instance.get_run_records(
        RunsFilter(tags={"dagster/partition": partition}, statuses=[DagsterRunStatus.SUCCESS]), limit=10
    )
    for record in records:  # newest first
        if (
            record.dagster_run.run_id != run.run_id
            and record.dagster_run.tags.get("dagster/sensor_name") != AFTER_GRADING
        ):
            return record.dagster_run.run_id
    return None
