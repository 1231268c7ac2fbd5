"""`graded_by_current_grader`: a check on grades and on scorecards that warns, on the lineage graph and
each asset's page, when a pair was graded by another grader than the one loaded.

It runs with every materialization of the asset, and the `grader_watch` sensor evaluates it after
"Reload definitions" (the daemon of `dagster dev`, `make dev`, runs it): a rules change shows as a
warning at once on the graph, and on each pair's partition, when selected, as metadata rows saying which
grader made it, which is current and how to regrade (beside Dagster's own "Unsynced").
"""

import json

from dagster import (
    AssetCheckEvaluation,
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetCheckSeverity,
    AssetObservation,
    DefaultSensorStatus,
    SensorEvaluationContext,
    SensorResult,
    SkipReason,
    asset_check,
    sensor,
)
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST
from assets.grading.grades import grades
from assets.grading.scorecards import scorecards
from assets.shared.partitions import pair_key, pair_of, pair_partitions
from assets.shared.resources import Project
from ragpipe.history.behind import Behind, behind
from ragpipe.warehouse.lock import WarehouseBusy, open_read_only

CHECK = "graded_by_current_grader"
PAIRS = set(pair_partitions.get_partition_keys())
DESCRIBED = "Warns when a pair's {table} were made by another grader than the loaded rules and grading code "
DESCRIBED += "(an edit, or a candidate rules file): "
DESCRIBED += "run `ragpipe regrade`. Evaluated with every materialization and by the grader_watch sensor."


def _result(finding: Behind) -> AssetCheckResult:
    return AssetCheckResult(
        passed=finding.passed,
        severity=AssetCheckSeverity.WARN,
        description=finding.description(),
        metadata=finding.metadata(),
    )


def loaded_graders(project: Project) -> dict[tuple[str, str], str]:
    """The grader of each declared pair whose configuration names a judge (the others': `project.rules()`)."""
    pairs = [pair_of(pair_partitions.get_partition_key_from_str(key)) for key in sorted(PAIRS)]
    judgings = {pair: project.judging_of(*pair) for pair in pairs}  # each pair's configuration read once
    return {pair: judging.rules.version for pair, judging in judgings.items() if judging.config is not None}


def behind_result(duckdb: DuckDBResource, table: str, project: Project) -> AssetCheckResult:
    """The check on `table` against the loaded graders (the one-run regrade evaluates it too)."""
    with duckdb.get_connection() as conn:
        return _result(behind(conn, table, project.rules().version, loaded_graders(project)))


@asset_check(
    op_tags=ON_WAREHOUSE_HOST, asset=grades, name=CHECK, blocking=False, description=DESCRIBED.format(table="grades")
)
def grades_by_current_grader(
    context: AssetCheckExecutionContext, duckdb: DuckDBResource, project: Project
) -> AssetCheckResult:
    with duckdb.get_connection() as conn:
        return _result(behind(conn, "grades", project.rules().version, loaded_graders(project)))


@asset_check(
    op_tags=ON_WAREHOUSE_HOST,
    asset=scorecards,
    name=CHECK,
    blocking=False,
    description=DESCRIBED.format(table="scorecards"),
)
def scorecards_by_current_grader(
    context: AssetCheckExecutionContext, duckdb: DuckDBResource, project: Project
) -> AssetCheckResult:
    with duckdb.get_connection() as conn:
        return _result(behind(conn, "scorecards", project.rules().version, loaded_graders(project)))


UI_SETTING = "RAGPIPE_UI"  # set by `make dev` (assets/deploy/dev_ui.py) for the webserver and the daemon


def said_at_load(project: Project, tables=("grades", "scorecards")) -> dict[str, str]:
    """table -> a first line for its description when, as the definitions load, some pair's rows of it are by
    another grader than the loaded one: the Catalog row and the asset's Overview show a description first,
    and "Reload definitions" (what a rules edit asks for) is when it is read again. Read without waiting on a
    busy warehouse, and in the UI's processes only (RAGPIPE_UI: assets/grading/definitions.py asks)."""
    path = project.root / "ragpipe.duckdb"
    if not path.exists():
        return {}
    try:
        conn = open_read_only(path, wait=0)
    except (WarehouseBusy, OSError):
        return {}
    try:
        with conn:
            graders = loaded_graders(project)
            findings = [behind(conn, table, project.rules().version, graders) for table in tables]
    except Exception:  # noqa: BLE001 - a banner that cannot be read is no banner; the check still says it
        return {}
    return {
        f.table: f"\u26a0 As the definitions loaded: {f.description()} Reload definitions after regrading "
        f"to clear this line; the check {CHECK} says it as it changes."
        for f in findings
        if not f.passed
    }


@sensor(minimum_interval_seconds=30, default_status=DefaultSensorStatus.RUNNING)
def grader_watch(context: SensorEvaluationContext, project: Project):
    """Evaluates `graded_by_current_grader` on grades and scorecards against the loaded grader, and
    records the result when it changed, with an observation on each pair's partition behind: no run,
    nothing written to the warehouse."""
    current, graders = project.rules().version, loaded_graders(project)
    path = project.root / "ragpipe.duckdb"
    if not path.exists():
        return SkipReason(f"no warehouse at {path} yet")
    try:
        conn = open_read_only(path, wait=2)  # a writer holds the file for a moment at most: the next tick
    except WarehouseBusy as exc:
        return SkipReason(f"warehouse busy, next tick: {exc}")
    with conn:
        findings = [behind(conn, table, current, graders) for table in ("grades", "scorecards")]
    state = json.dumps([[f.table, f.current, f.behind] for f in findings], sort_keys=True)
    if state == context.cursor:
        return SkipReason("no change since the last evaluation")
    events = [
        AssetCheckEvaluation(
            asset_key=asset.key,
            check_name=CHECK,
            passed=f.passed,
            severity=AssetCheckSeverity.WARN,
            description=f.description(),
            metadata=f.metadata(),
        )
        for asset, f in zip((grades, scorecards), findings)
    ]
    # and on each pair behind, where the partition list shows it when selected (its metadata rows, until the
    # next materialization replaces them): an observation, which triggers no automation on these assets
    events += [
        AssetObservation(asset_key=asset.key, partition=key, description=note, metadata=meta)
        for asset, f in zip((grades, scorecards), findings)
        for corpus, config, note, meta in f.per_pair()
        if (key := pair_key(corpus, config)) in PAIRS  # a pair no longer declared has no partition to show it on
    ]
    said = ", ".join(f"{f.table}: {len(f.behind)} of {f.pairs} pairs behind" for f in findings)
    return SensorResult(asset_events=events, cursor=state, skip_message=f"no run; {CHECK} evaluated ({said})")
