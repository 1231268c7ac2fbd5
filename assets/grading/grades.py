"""Grades: the verdict on every answer under the current grader rules."""

from pathlib import Path

import pandas as pd
from dagster import (
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetCheckSeverity,
    AssetOut,
    MetadataValue,
    OpExecutionContext,
    Output,
    asset_check,
)
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST
from assets.shared.partitions import pair_of, pair_partitions
from assets.shared.progress import progress_reporter
from assets.shared.resources import Project
from assets.shared.sharded import Stage, sharded_asset
from assets.shared.versions import GRADER_VERSION, data_version
from ragpipe.answering.shards import consolidate, read, split, write
from ragpipe.evaluation.money_bar import offending_answers
from ragpipe.grading.grade_table import grade_answers
from ragpipe.grading.judge.apply import apply_judgments
from ragpipe.grading.judge.config import identity_of
from ragpipe.grading.judge.store import stored_judgments
from ragpipe.history.delta import grade_delta, said_by_direction
from ragpipe.history.record import store_grading
from ragpipe.warehouse.tables import read_partition, table_exists


def plan_grade_shards(context: OpExecutionContext, duckdb: DuckDBResource, project: Project, work: Path):
    """Export the pair's answers, cut by question-id hash, with its questions and needles, as Parquet."""
    corpus, config = pair_of(context.partition_key)
    project.rules()  # a rules file that does not load stops the run here, before any grade is written
    with duckdb.get_connection() as conn:
        answers = read_partition(conn, "answers", {"corpus": corpus, "config": config})
        write(read_partition(conn, "questions", {"corpus": corpus}), work / "questions.parquet")
        write(read_partition(conn, "needles", {"corpus": corpus}), work / "needles.parquet")
        judge = project.judge_config()
        if judge is not None:  # the judge's stored verdicts, applied by each shard (assets/grading/judgments.py)
            write(stored_judgments(conn, identity_of(judge).id), work / "judgments.parquet")
    parts = enumerate(split(answers, project.shards))
    return None, [{"answers": write(part, work / f"answers-{k}-of-{project.shards}.parquet")} for k, part in parts]


def grade_shard(context: OpExecutionContext, project: Project, shard: dict):
    """Grade one shard from Parquet to Parquet; no warehouse connection, so shards run side by side."""
    folder = Path(shard["work"])
    answers, questions = read(shard["answers"]), read(folder / "questions.parquet")
    corpus, config = pair_of(context.partition_key)
    said = progress_reporter(context.log, "grading", f"{corpus}/{config} shard {shard['shard']}", project.progress_bar)
    frame = grade_answers(answers, questions, read(folder / "needles.parquet"), project.rules(), progress=said)
    if (folder / "judgments.parquet").exists():
        frame = apply_judgments(frame, answers, questions, read(folder / "judgments.parquet"), project.judge_on)
    return write(frame, folder / f"grades-{shard['shard']}.parquet"), {}


def store_grades(context: OpExecutionContext, duckdb: DuckDBResource, project: Project, _, shards: list[str]) -> list:
    """The one writer: the shards' grades, in one process's order, into DuckDB, Parquet and grade_history."""
    corpus, config = pair_of(context.partition_key)
    keys = {"corpus": corpus, "config": config}
    frame = consolidate(shards, ["answer_set", "question_id"])
    rules = project.rules()
    with duckdb.get_connection() as conn:
        before = read_partition(conn, "grades", keys) if table_exists(conn, "grades") else None
        path, event = store_grading(
            conn,
            project.root,
            frame,
            keys,
            rules,
            context.run.run_id,
            pd.Timestamp.now(tz="UTC"),
        )
    counts = frame["verdict"].value_counts().to_dict() if len(frame) else {}
    metadata = {
        "dagster/row_count": len(frame),
        "parquet": str(path),
        "grader_version": rules.version,
        "grading_event": event["seq"],
        "new_in_history": event["history_rows"],
        "shards": len(shards),
        **{v: int(counts.get(v, 0)) for v in ("correct", "partial", "wrong", "ungradable")},
        **flips_said(before, frame, keys),
    }
    return [Output(None, "grades", data_version=data_version(frame), metadata=metadata)]


def flips_said(before: pd.DataFrame | None, after: pd.DataFrame, keys: dict) -> dict:
    """The verdicts this grading flipped against the grades it replaces, by direction, for the run's
    metadata (the UI's materialization shows them; `grade_delta` keeps the rows)."""
    if before is None or before.empty:
        return {"flips": MetadataValue.md("graded for the first time: nothing to compare")}
    delta = grade_delta(before.assign(**keys), after.assign(**keys))
    return {
        "flipped": delta["changed"],
        "monotone": delta["monotone"],
        "flips": MetadataValue.md(said_by_direction(delta)),
    }


grades = sharded_asset(
    Stage("grades", plan_grade_shards, grade_shard, store_grades),
    outs={
        "grades": AssetOut(
            description="Verdict (correct/partial/wrong), declined flag, failure label, deciding rule and matched "
            "spans per answer. Its code version is the grader version: a rules change makes grades (and what "
            "follows) stale, nothing upstream. Graded in shards by question-id hash (`RAGPIPE_SHARDS`), side by "
            "side under a multiprocess or Kubernetes executor; one step stores them. Every verdict is also "
            "appended to `grade_history`.",
            kinds={"duckdb"},
            code_version=GRADER_VERSION,  # a rules or grading-code change makes grades stale, nothing upstream
        )
    },
    deps=("answers", "questions", "needles", "judgments"),
    partitions_def=pair_partitions,
    group_name="grading",
    description="Grade every answer of a pair, in shards.",
)


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
