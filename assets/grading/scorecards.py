"""Scorecards per (corpus, configuration): the numbers people compare."""

import pandas as pd
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST
from assets.shared.automation import AFTER_GRADING
from assets.shared.made import Made
from assets.shared.partitions import pair_of, pair_partitions
from assets.shared.resources import Project
from assets.shared.stages import deps
from assets.shared.versions import data_version
from ragpipe.history.ledger import record_scorecards
from ragpipe.scoring.leaderboard import pair_leaderboard
from ragpipe.scoring.scorecard import (
    SCORECARD_COLUMNS,
    money_bar_summary,
    scorecard_markdown,
    scorecards_for_pair,
)
from ragpipe.scoring.slices import pair_slices
from ragpipe.warehouse.tables import store


@asset(
    op_tags=ON_WAREHOUSE_HOST,
    partitions_def=pair_partitions,
    group_name="grading",
    kinds={"duckdb"},
    deps=deps("scorecards"),
    automation_condition=AFTER_GRADING,
)
def scorecards(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """Overall %, correct/partial/wrong, answerable X of Y, honesty, median latency and the ZERO-WRONG-MONEY bar,
    per answer set; retrieval scores and where the misses are (`failure_attribution`) for the sets that
    answered from the pair's retrieval. Beside them, `scorecard_slices`: the same counts per question type
    and per question kind; and `leaderboards`, every answer set of the pair ranked, tested against the
    best (what the review report shows)."""
    return scorecards_of(duckdb, project, *pair_of(context.partition_key), context.log, context.run.run_id).result()


def scorecards_of(duckdb: DuckDBResource, project: Project, corpus: str, config: str, log, run_id: str) -> Made:
    """The pair's scorecards, failure attribution and slices, computed from its stored grades and stored."""
    with duckdb.get_connection() as conn:
        cards, attributed = scorecards_for_pair(conn, corpus, config)
        frame = pd.DataFrame(cards, columns=SCORECARD_COLUMNS)
        path = store(conn, project.root, "scorecards", frame, {"corpus": corpus, "config": config})
        store(conn, project.root, "failure_attribution", attributed, {"corpus": corpus, "config": config})
        slices = pair_slices(conn, corpus, config)
        store(conn, project.root, "scorecard_slices", slices, {"corpus": corpus, "config": config})
        store(
            conn,
            project.root,
            "leaderboards",
            pair_leaderboard(conn, corpus, config),
            {"corpus": corpus, "config": config},
        )
        record_scorecards(conn, frame, run_id, pd.Timestamp.now(tz="UTC"))
    return Made(
        data_version=data_version(frame.drop(columns="grading_event")),
        metadata={
            "dagster/row_count": len(frame),
            "parquet": str(path),
            "scorecard": MetadataValue.md("\n\n".join(scorecard_markdown(c) for c in cards)),
            "answer_sets": len(cards),
            "slices": len(slices),
            # per system, so the asset's plots follow each one over time
            **{f"overall_pct {c['answer_set']}": c["overall_pct"] for c in cards},
            "money_bar": money_bar_summary(cards),
        },
    )
