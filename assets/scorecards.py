"""Scorecards per (corpus, configuration): the numbers people compare."""

import pandas as pd
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.partitions import pair_of, pair_partitions
from assets.resources import Project
from ragpipe.scorecard import SCORECARD_COLUMNS, build_scorecard, scorecard_markdown
from ragpipe.warehouse import read_partition, store


@asset(partitions_def=pair_partitions, group_name="grading", kinds={"duckdb"}, deps=["grades", "answers", "documents", "failed_documents", "question_problems"])
def scorecards(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """Overall %, correct/partial/wrong, answerable X of Y, honesty, median latency and the ZERO-WRONG-MONEY bar."""
    corpus, config = pair_of(context.partition_key)
    keys = {"corpus": corpus, "config": config}
    with duckdb.get_connection() as conn:
        grade_rows = read_partition(conn, "grades", keys)
        answer_rows = read_partition(conn, "answers", keys)
        failed_rows = read_partition(conn, "failed_documents", {"corpus": corpus})
        documents = len(read_partition(conn, "documents", {"corpus": corpus})) + len(failed_rows)  # every PDF, readable or not
        failed = len(failed_rows)
        problems = len(read_partition(conn, "question_problems", {"corpus": corpus}))
        cards = [
            build_scorecard(g, answer_rows[answer_rows["answer_set"] == s], documents, failed, problems)
            for s, g in grade_rows.groupby("answer_set", sort=True)
        ]
        frame = pd.DataFrame(cards, columns=SCORECARD_COLUMNS)
        path = store(conn, project.root, "scorecards", frame, keys)
    return MaterializeResult(metadata={
        "dagster/row_count": len(frame), "parquet": str(path),
        "scorecard": MetadataValue.md("\n\n".join(scorecard_markdown(c) for c in cards)),
        "overall_pct": cards[0]["overall_pct"] if cards else 0.0,
        "money_bar": cards[0]["money_bar"] if cards else "n/a",
    })
