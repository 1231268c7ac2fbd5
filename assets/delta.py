"""The grade delta: what the latest grader change flipped, for one pair."""

from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.partitions import pair_of, pair_partitions
from assets.resources import Project
from ragpipe.delta import delta_frame, grade_delta
from ragpipe.history import grader_versions, verdicts_at
from ragpipe.warehouse import store


@asset(name="grade_delta", partitions_def=pair_partitions, group_name="grading", kinds={"duckdb"}, deps=["grades"])
def grade_delta_asset(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """Every answer whose verdict, declined flag or failure changed between the previous and the
    current grader version, with old and new values and the deciding rules; a summary by direction;
    and whether the change was monotone (no correct verdict got worse)."""
    corpus, config = pair_of(context.partition_key)
    with duckdb.get_connection() as conn:
        versions = grader_versions(conn, corpus, config)
        if len(versions) < 2:
            return MaterializeResult(metadata={"dagster/row_count": 0, "note": "only one grader version so far"})
        before, after = versions[-2], versions[-1]
        delta = grade_delta(verdicts_at(conn, before, corpus, config), verdicts_at(conn, after, corpus, config))
        frame = delta_frame(delta).assign(from_version=before, to_version=after)
        frame["corpus"], frame["config"] = corpus, config
        store(conn, project.root, "grade_deltas", frame, {"corpus": corpus, "config": config, "from_version": before, "to_version": after})
    lines = [f"- {c}: {d}: {n}" for c, dirs in delta["summary"].items() for d, n in dirs.items()]
    return MaterializeResult(metadata={
        "dagster/row_count": len(frame), "from_version": before, "to_version": after,
        "monotone": delta["monotone"], "changed": delta["changed"],
        "summary": MetadataValue.md("\n".join(lines) or "no verdict changed"),
    })
