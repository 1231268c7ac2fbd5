"""The review report: one static HTML file per pair, re-rendered whenever its scorecards are."""

import hashlib

from dagster import AssetExecutionContext, DataVersion, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST
from assets.shared.automation import AFTER_GRADING
from assets.shared.made import Made
from assets.shared.partitions import pair_of, pair_partitions
from assets.shared.resources import Project
from assets.shared.stages import deps
from ragpipe.review.data import load_review
from ragpipe.review.render import write_report


@asset(
    op_tags=ON_WAREHOUSE_HOST,
    partitions_def=pair_partitions,
    group_name="grading",
    kinds={"html"},
    deps=deps("review_report"),
    automation_condition=AFTER_GRADING,
)
def review_report(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """Every answer with its verdict, the rule that decided and the matched spans highlighted; filters,
    a PASS audit sample and the delta from the previous grader version. Self-contained: opens from disk."""
    return review_of(duckdb, project, *pair_of(context.partition_key), context.log, context.run.run_id).result()


def review_of(duckdb: DuckDBResource, project: Project, corpus: str, config: str, log, run_id: str) -> Made:
    """The pair's review report rendered from what the warehouse holds."""
    with duckdb.get_connection() as conn:
        data = load_review(conn, corpus, config)
    pair = (f"corpus={corpus}", f"config={config}")
    # the plots of the last render kept beside the warehouse: a regrade draws only those whose input changed
    out, plots = project.root.joinpath("reports", *pair, "review.html"), project.root.joinpath("cache", "plots", *pair)
    path = write_report(data, out, plots)
    return Made(
        data_version=DataVersion(hashlib.sha256(path.read_bytes()).hexdigest()[:24]),
        metadata={
            "report": MetadataValue.path(str(path)),
            "open": MetadataValue.url(path.resolve().as_uri()),
            "answers": len(data.rows),
            "flips": len(data.flips),
            "grader_version": data.grader_version,
        },
    )
