"""The grade delta: what the latest grading of a pair changed against the one before it."""

from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST
from assets.shared.automation import AFTER_GRADING
from assets.shared.made import Made
from assets.shared.partitions import pair_of, pair_partitions
from assets.shared.resources import Project
from assets.shared.stages import deps
from assets.shared.versions import data_version
from ragpipe.history.delta import delta_frame, event_delta, record_delta, said_by_direction
from ragpipe.warehouse.tables import store


@asset(
    name="grade_delta",
    op_tags=ON_WAREHOUSE_HOST,
    partitions_def=pair_partitions,
    group_name="grading",
    kinds={"duckdb"},
    deps=deps("grade_delta"),
    automation_condition=AFTER_GRADING,
)
def grade_delta_asset(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """Every answer whose verdict, declined flag or failure changed between the pair's previous and
    latest grading (whatever the grader versions: a revert shows as the inverse of what it undoes),
    with old and new values and the deciding rules; a summary by direction; and whether the change
    was monotone (no correct verdict got worse). The same flips as `ragpipe delta`."""
    return delta_of(duckdb, project, *pair_of(context.partition_key), context.log, context.run.run_id).result()


def delta_of(duckdb: DuckDBResource, project: Project, corpus: str, config: str, log, run_id: str) -> Made:
    """The flips between the pair's last two gradings, stored as one partition of `grade_deltas`."""
    with duckdb.get_connection() as conn:
        delta = event_delta(conn, corpus, config)
        if delta is None:
            return Made(metadata={"dagster/row_count": 0, "note": "graded once so far: nothing to compare"})
        before, after = delta["from_version"], delta["to_version"]
        frame = delta_frame(delta).assign(
            from_version=before,
            to_version=after,
            from_event=delta["from_event"],
            to_event=delta["to_event"],
        )
        frame["corpus"], frame["config"] = corpus, config
        keys = {"corpus": corpus, "config": config, "from_event": delta["from_event"], "to_event": delta["to_event"]}
        store(conn, project.root, "grade_deltas", frame, keys)  # one partition per pair of gradings: every delta stays
        record_delta(conn, keys, delta["changed"])  # so a reader knows a delta of no rows was computed, not missing
    return Made(
        data_version=data_version(frame),
        metadata={
            "dagster/row_count": len(frame),
            "from_version": before,
            "to_version": after,
            "from_event": delta["from_event"],
            "to_event": delta["to_event"],
            "monotone": delta["monotone"],
            "changed": delta["changed"],
            "summary": MetadataValue.md(said_by_direction(delta)),
        },
    )
