"""Grades: the verdict on every answer under the current grader rules."""

from pathlib import Path

import pandas as pd
from dagster import (
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetCheckSeverity,
    AssetIn,
    DynamicOut,
    DynamicOutput,
    In,
    MetadataValue,
    Nothing,
    OpExecutionContext,
    Output,
    asset_check,
    graph_asset,
    op,
)
from dagster_duckdb import DuckDBResource

from assets.liveness import run_is_live
from assets.partitions import pair_of, pair_partitions
from assets.queues import ON_WAREHOUSE_HOST, ran_on
from assets.resources import Project
from assets.versions import GRADER_VERSION, data_version
from ragpipe.answering.shards import clean, clean_stale, consolidate, read, split, work_dir, write
from ragpipe.evaluation.money_bar import offending_answers
from ragpipe.grading.grade_table import grade_answers
from ragpipe.history.record import store_grading
from ragpipe.warehouse.tables import read_partition


@op(ins={"inputs": In(Nothing)}, out=DynamicOut(dict), tags=ON_WAREHOUSE_HOST)
def plan_grade_shards(context: OpExecutionContext, duckdb: DuckDBResource, project: Project):
    """Export the pair's answers, cut by question-id hash, with its questions and needles, as Parquet."""
    corpus, config = pair_of(context.partition_key)
    project.rules()  # a rules file that does not load stops the run here, before any grade is written
    folder = work_dir(project.root, "grades", corpus, config, context.run_id)
    with duckdb.get_connection() as conn:
        answers = read_partition(conn, "answers", {"corpus": corpus, "config": config})
        write(read_partition(conn, "questions", {"corpus": corpus}), folder / "questions.parquet")
        write(read_partition(conn, "needles", {"corpus": corpus}), folder / "needles.parquet")
    for k, part in enumerate(split(answers, project.shards)):
        path = write(part, folder / f"answers-{k}-of-{project.shards}.parquet")
        yield DynamicOutput({"folder": str(folder), "answers": path, "shard": k}, mapping_key=f"shard_{k}")


@op
def grade_shard(context: OpExecutionContext, project: Project, shard: dict) -> str:
    """Grade one shard from Parquet to Parquet; no warehouse connection, so shards run side by side."""
    folder = Path(shard["folder"])
    frame = grade_answers(
        read(shard["answers"]), read(folder / "questions.parquet"), read(folder / "needles.parquet"), project.rules()
    )
    context.add_output_metadata(ran_on())
    return write(frame, folder / f"grades-{shard['shard']}.parquet")


@op(tags=ON_WAREHOUSE_HOST)
def store_grades(context: OpExecutionContext, duckdb: DuckDBResource, project: Project, shards: list[str]) -> Output:
    """The one writer: the shards' grades, in one process's order, into DuckDB, Parquet and grade_history."""
    corpus, config = pair_of(context.partition_key)
    frame = consolidate(shards, ["answer_set", "question_id"])
    rules = project.rules()
    with duckdb.get_connection() as conn:
        path, event = store_grading(
            conn,
            project.root,
            frame,
            {"corpus": corpus, "config": config},
            rules,
            context.run.run_id,
            pd.Timestamp.now(tz="UTC"),
        )
    clean(work_dir(project.root, "grades", corpus, config, context.run_id))
    stale = clean_stale(
        project.root, "grades", corpus, config, context.run_id, lambda r: run_is_live(context.instance, r)
    )
    counts = frame["verdict"].value_counts().to_dict() if len(frame) else {}
    if stale:  # housekeeping, not a figure of the grades: said in the run's log
        context.log.info(f"removed {len(stale)} shard folder(s) left by runs no longer live")
    return Output(
        None,
        data_version=data_version(frame),
        metadata={
            "dagster/row_count": len(frame),
            "parquet": str(path),
            "grader_version": rules.version,
            "grading_event": event["seq"],
            "new_in_history": event["history_rows"],
            "shards": len(shards),
            **{v: int(counts.get(v, 0)) for v in ("correct", "partial", "wrong", "ungradable")},
        },
    )


@graph_asset(
    partitions_def=pair_partitions,
    group_name="grading",
    kinds={"duckdb"},
    ins={name: AssetIn(dagster_type=Nothing) for name in ("answers", "questions", "needles")},
    code_version=GRADER_VERSION,  # a rules or grading-code change makes grades stale, nothing upstream
)
def grades(answers, questions, needles):
    """Verdict (correct/partial/wrong), declined flag, failure label, deciding rule and matched spans per answer.
    Its code version is the grader version: a rules change makes grades (and what follows) stale, nothing upstream.
    Graded in shards by question-id hash (`RAGPIPE_SHARDS`), side by side under a multiprocess or Kubernetes
    executor; one step stores them. Every verdict is also appended to `grade_history`."""
    return store_grades(plan_grade_shards(inputs=[answers, questions, needles]).map(grade_shard).collect())


@asset_check(
    op_tags=ON_WAREHOUSE_HOST,
    asset=grades,
    blocking=False,
    description="ZERO-WRONG-MONEY: no answer may assert a wrong money figure. Per system: a failing answer set's "
    "scorecard is stored marked `blocked`; the pair's other sets go on. Answer sets people labelled (every answer "
    "carries a person's verdict) calibrate the grader and are exempt.",
)
def zero_wrong_money(context: AssetCheckExecutionContext, duckdb: DuckDBResource) -> AssetCheckResult:
    corpus, config = pair_of(pair_partitions.get_partition_key_from_str(context.run.tags["dagster/partition"]))
    keys = {"corpus": corpus, "config": config}
    with duckdb.get_connection() as conn:
        bad = offending_answers(read_partition(conn, "grades", keys), read_partition(conn, "answers", keys))
    return AssetCheckResult(
        passed=bad.empty,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "corpus": corpus,
            "config": config,
            "wrong_money": len(bad),
            "offending": MetadataValue.md(
                "\n".join(f"- `{r.question_id}` ({r.answer_set}): {list(r.wrong_money)}" for r in bad.itertuples())
                or "none"
            ),
            "offending_questions": MetadataValue.json(sorted(set(bad["question_id"]))),
            "blocked_sets": MetadataValue.json(sorted(set(bad["answer_set"]))),
        },
    )
