"""`graded_by_current_grader`: a check on every asset of the grading group that fails, turning its node of
the lineage graph red at the default zoom, and says so on its page, when a pair was graded by
another grader than the one loaded: rule verdicts by their rules, grades and scorecards by their grader, and
what is made from the grades (judgments, the delta, agreement, the review report) with the grades.

It runs with every materialization of the asset, and the `grader_watch` sensor evaluates it after
"Reload definitions" (the daemon of `dagster dev`, `make dev`, runs it): a rules change shows as a
warning at once on the graph, and on each pair's partition, when selected, as metadata rows saying which
grader made it, which is current and how to regrade (beside Dagster's own "Unsynced").
"""

import json
from dataclasses import replace

from dagster import (
    AssetCheckEvaluation,
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetCheckSeverity,
    AssetKey,
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
from assets.shared.partitions import pair_key, pair_of, pair_partitions
from assets.shared.resources import Project
from ragpipe.history.behind import Behind, behind
from ragpipe.warehouse.lock import WarehouseBusy, open_read_only

CHECK = "graded_by_current_grader"
# ERROR, not WARN: at the lineage's default zoom a node is a box whose colour is its status, and only a failed
# check of severity ERROR turns it (red); a WARN showed nowhere until zoomed in. Not blocking: nothing waits on it
SEVERITY = AssetCheckSeverity.ERROR
PAIRS = set(pair_partitions.get_partition_keys())
DESCRIBED = "Warns when a pair's {table} were made by another grader than the loaded rules and grading code "
DESCRIBED += "(an edit, or a candidate rules file): "
DESCRIBED += "run `ragpipe regrade`. Evaluated with every materialization and by the grader_watch sensor."


def _result(finding: Behind) -> AssetCheckResult:
    return AssetCheckResult(
        passed=finding.passed,
        severity=SEVERITY,
        description=finding.description(),
        metadata=finding.metadata(),
    )


def loaded_graders(project: Project) -> dict[tuple[str, str], str]:
    """The grader of each declared pair whose configuration names a judge (the others': `project.rules()`)."""
    pairs = [pair_of(pair_partitions.get_partition_key_from_str(key)) for key in sorted(PAIRS)]
    judgings = {pair: project.judging_now(*pair) for pair in pairs}  # each pair's configuration read once
    return {pair: judging.rules.version for pair, judging in judgings.items() if judging.config is not None}


# the grading group's assets, each with the check; those made from the grades are behind with them
WATCHED = ("rule_verdicts", "judgments", "grades", "scorecards", "grade_delta", "agreement", "review_report")
FROM_GRADES = ("judgments", "grade_delta", "agreement", "review_report")


def findings(conn, project: Project, assets: tuple[str, ...] = WATCHED) -> dict[str, Behind]:
    """asset -> its finding against the loaded grader: rule verdicts against the rules alone (a judge does not
    make them), grades and scorecards against each pair's grader, and what is made from the grades with them."""
    current, graders = project.rules().version, loaded_graders(project)
    out = {}
    if {"grades", *FROM_GRADES} & set(assets):
        graded = behind(conn, "grades", current, graders)
        out |= {name: replace(graded, table=name, via="grades") for name in FROM_GRADES if name in assets}
        out["grades"] = graded
    if "scorecards" in assets:
        out["scorecards"] = behind(conn, "scorecards", current, graders)
    if "rule_verdicts" in assets:
        out["rule_verdicts"] = behind(conn, "rule_verdicts", project.rules_alone().version)
    return {name: out[name] for name in assets}


def behind_result(duckdb: DuckDBResource, asset: str, project: Project) -> AssetCheckResult:
    """The check on `asset` against the loaded graders (the one-run regrade evaluates it too)."""
    with duckdb.get_connection() as conn:
        return _result(findings(conn, project, (asset,))[asset])


def _check_on(asset: str):
    @asset_check(
        op_tags=ON_WAREHOUSE_HOST,
        asset=asset,
        name=CHECK,
        blocking=False,
        description=DESCRIBED.format(table=asset),
    )
    def by_current_grader(
        context: AssetCheckExecutionContext, duckdb: DuckDBResource, project: Project
    ) -> AssetCheckResult:
        return behind_result(duckdb, asset, project)

    return by_current_grader


CHECKS = [_check_on(asset) for asset in WATCHED]


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
            found = [behind(conn, table, project.rules().version, graders) for table in tables]
    except Exception:  # noqa: BLE001 - a banner that cannot be read is no banner; the check still says it
        return {}
    return {
        f.table: f"\u26a0 As the definitions loaded: {f.description()} Reload definitions after regrading "
        f"to clear this line; the check {CHECK} says it as it changes."
        for f in found
        if not f.passed
    }


@sensor(minimum_interval_seconds=30, default_status=DefaultSensorStatus.RUNNING)
def grader_watch(context: SensorEvaluationContext, project: Project):
    """Evaluates `graded_by_current_grader` on grades and scorecards against the loaded grader, and
    records the result when it changed, with an observation on each pair's partition behind: no run,
    nothing written to the warehouse."""
    path = project.root / "ragpipe.duckdb"
    if not path.exists():
        return SkipReason(f"no warehouse at {path} yet")
    try:
        conn = open_read_only(path, wait=2)  # a writer holds the file for a moment at most: the next tick
    except WarehouseBusy as exc:
        return SkipReason(f"warehouse busy, next tick: {exc}")
    with conn:
        found = findings(conn, project)
    state = json.dumps([SEVERITY.value, *([f.table, f.current, f.behind] for f in found.values())], sort_keys=True)
    if state == context.cursor:
        return SkipReason("no change since the last evaluation")
    events: list = [
        AssetCheckEvaluation(
            asset_key=AssetKey(asset),
            check_name=CHECK,
            passed=f.passed,
            severity=SEVERITY,
            description=f.description(),
            metadata=f.metadata(),
        )
        for asset, f in found.items()
    ]
    # and on each pair behind, where the partition list shows it when selected (its metadata rows, until the
    # next materialization replaces them): an observation, which triggers no automation on these assets
    events += [
        AssetObservation(asset_key=AssetKey(asset), partition=key, description=note, metadata=meta)
        for asset, f in found.items()
        if asset in ("grades", "scorecards")
        for corpus, config, note, meta in f.per_pair()
        if (key := pair_key(corpus, config)) in PAIRS  # a pair no longer declared has no partition to show it on
    ]
    said = ", ".join(f"{f.table}: {len(f.behind)} of {f.pairs} pairs behind" for f in found.values())
    return SensorResult(asset_events=events, cursor=state, skip_message=f"no run; {CHECK} evaluated ({said})")
