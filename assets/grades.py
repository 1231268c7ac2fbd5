"""Grades: the verdict on every answer under the current grader rules."""

import pandas as pd
from dagster import (
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    MaterializeResult,
    MetadataValue,
    asset,
    asset_check,
)
from dagster_duckdb import DuckDBResource

from assets.partitions import pair_of, pair_partitions
from assets.resources import Project
from ragpipe.grading.grade_table import grade_pair
from ragpipe.history import record_grades
from ragpipe.grading.rules import load_rules
from ragpipe.settings import rules_path
from ragpipe.warehouse import store


@asset(
    partitions_def=pair_partitions,
    group_name="grading",
    kinds={"duckdb"},
    deps=["answers", "questions", "needles"],
    code_version=load_rules(rules_path()).version,  # a rules change makes grades stale, nothing upstream
)
def grades(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """Verdict (correct/partial/wrong), declined flag, failure label, deciding rule and matched spans per answer.
    Its code version is the grader version: a rules change makes grades (and what follows) stale, nothing upstream.
    Every verdict is also appended to `grade_history` (keyed by answer, answer text and grader version)."""
    corpus, config = pair_of(context.partition_key)
    rules = project.rules()
    with duckdb.get_connection() as conn:
        frame, answer_rows = grade_pair(conn, corpus, config, rules)
        path = store(conn, project.root, "grades", frame, {"corpus": corpus, "config": config})
        new = record_grades(conn, frame, answer_rows, context.run.run_id, pd.Timestamp.now(tz="UTC"))
    counts = frame["verdict"].value_counts().to_dict()
    return MaterializeResult(metadata={
        "dagster/row_count": len(frame), "parquet": str(path), "grader_version": rules.version,
        "new_in_history": new,
        **{v: int(counts.get(v, 0)) for v in ("correct", "partial", "wrong")},
    })


@asset_check(
    asset=grades,
    blocking=True,
    description="ZERO-WRONG-MONEY: no money question may carry an asserted wrong money figure. "
    "Blocking: a failure stops scorecards for the pair. Imported human-labelled answer sets "
    "(answer_set 'labeled:*') calibrate the grader and are exempt.",
)
def zero_wrong_money(context: AssetCheckExecutionContext, duckdb: DuckDBResource) -> AssetCheckResult:
    corpus, config = pair_of(pair_partitions.get_partition_key_from_str(context.run.tags["dagster/partition"]))
    with duckdb.get_connection() as conn:
        bad = conn.execute(
            "SELECT answer_set, question_id, wrong_money FROM grades "
            "WHERE corpus = ? AND config = ? AND failure = 'wrong money figure' AND answer_set NOT LIKE 'labeled:%' "
            "ORDER BY answer_set, question_id",
            [corpus, config],
        ).df()
    return AssetCheckResult(
        passed=bad.empty,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "corpus": corpus,
            "config": config,
            "wrong_money": len(bad),
            "offending": MetadataValue.md(
                "\n".join(f"- `{r.question_id}` ({r.answer_set}): {list(r.wrong_money)}" for r in bad.itertuples()) or "none"
            ),
            "offending_questions": MetadataValue.json(sorted(set(bad["question_id"]))),
        },
    )
