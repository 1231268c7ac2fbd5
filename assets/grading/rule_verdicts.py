"""Rule verdicts: what the grader's rules alone decide about every answer, graded once per pair."""

from pathlib import Path

import pandas as pd
from dagster import AssetOut, OpExecutionContext, Output
from dagster_duckdb import DuckDBResource

from assets.shared.made import Made
from assets.shared.partitions import pair_of, pair_partitions
from assets.shared.progress import progress_reporter
from assets.shared.resources import Project
from assets.shared.sharded import Stage, sharded_asset
from assets.shared.stages import deps
from assets.shared.versions import data_version
from ragpipe.answering.shards import consolidate, read, split, write
from ragpipe.grading.grade_table import grade_answers
from ragpipe.grading.question_reading import question_readings
from ragpipe.grading.rules import Rules
from ragpipe.history.behind import stale_rule_verdicts
from ragpipe.warehouse.tables import read_partition, store, table_exists

TABLE = "rule_verdicts"
READINGS = "question_readings"  # stored by this stage: the rules read the questions as they grade


def plan_rule_shards(context: OpExecutionContext, duckdb: DuckDBResource, project: Project, work: Path):
    """Export the pair's answers, cut by question-id hash, with its questions and needles, as Parquet."""
    corpus, config = pair_of(context.partition_key)
    project.judging_of(corpus, config)  # rules that do not load, or an unknown judge, stop the run here
    with duckdb.get_connection() as conn:
        answers = read_partition(conn, "answers", {"corpus": corpus, "config": config})
        write(read_partition(conn, "questions", {"corpus": corpus}), work / "questions.parquet")
        write(read_partition(conn, "needles", {"corpus": corpus}), work / "needles.parquet")
    parts = enumerate(split(answers, project.shards))
    return None, [{"answers": write(part, work / f"answers-{k}-of-{project.shards}.parquet")} for k, part in parts]


def grade_shard(context: OpExecutionContext, project: Project, shard: dict):
    """Grade one shard by the rules, Parquet to Parquet; no warehouse connection, so shards run side by side."""
    folder = Path(shard["work"])
    corpus, config = pair_of(context.partition_key)
    said = progress_reporter(context.log, "grading", f"{corpus}/{config} shard {shard['shard']}", project.progress_bar)
    answers, questions, needles = (
        read(shard["answers"]),
        read(folder / "questions.parquet"),
        read(folder / "needles.parquet"),
    )
    frame = grade_answers(answers, questions, needles, project.rules_alone(), progress=said)
    return write(frame, folder / f"verdicts-{shard['shard']}.parquet"), {}


def store_rule_shards(context: OpExecutionContext, duckdb: DuckDBResource, project: Project, _, shards: list) -> list:
    """The one writer: the shards' verdicts, in one process's order, into DuckDB and Parquet."""
    corpus, config = pair_of(context.partition_key)
    verdicts = consolidate(shards, ["answer_set", "question_id"])
    made = stored_rule_verdicts(duckdb, project.root, project.rules_alone(), corpus, config, verdicts)
    return [Output(None, TABLE, data_version=made.data_version, metadata={**made.metadata, "shards": len(shards)})]


def rule_verdicts_of(duckdb: DuckDBResource, project: Project, corpus: str, config: str, log, run_id: str) -> Made:
    """The pair's rule verdicts graded in this process and stored (the one-run regrade's step): the rules
    resolved once, here, and handed to the grading and the store."""
    said = progress_reporter(log, "grading", f"{corpus}/{config}", project.progress_bar)
    rules = project.rules_alone()
    with duckdb.get_connection() as conn:
        answers = read_partition(conn, "answers", {"corpus": corpus, "config": config})
        questions = read_partition(conn, "questions", {"corpus": corpus})
        needles = read_partition(conn, "needles", {"corpus": corpus})
    frame = grade_answers(answers, questions, needles, rules, progress=said)
    return stored_rule_verdicts(duckdb, project.root, rules, corpus, config, frame)


def rule_verdicts_if_stale(
    duckdb: DuckDBResource, project: Project, corpus: str, config: str, log, run_id: str
) -> Made | None:
    """The pair's rule verdicts graded again with the loaded rules when the stored ones cannot stand for them
    over its stored answers (a rules change, answers changed since), else None: what a click on grades alone
    needs first, so that it regrades rather than fail (it once failed with a trace, "materialize
    rule_verdicts first", after every rules change)."""
    with duckdb.get_connection() as conn:
        verdicts = (
            read_partition(conn, TABLE, {"corpus": corpus, "config": config}) if table_exists(conn, TABLE) else None
        )
        answers = read_partition(conn, "answers", {"corpus": corpus, "config": config})
    stale = stale_rule_verdicts(verdicts, answers, project.rules_alone().version)
    if stale is None:
        return None
    log.info(f"{corpus}/{config}: {stale}: graded again with the loaded rules first")
    made = rule_verdicts_of(duckdb, project, corpus, config, log, run_id)
    made.metadata["graded_by"] = f"the grades step, for {stale}"
    return made


def stored_rule_verdicts(
    duckdb: DuckDBResource, root: Path, rules: Rules, corpus: str, config: str, frame: pd.DataFrame
) -> Made:
    """The pair's verdicts by `rules` stored, and what `rules` read each graded question as asking beside them."""
    pair = {"corpus": corpus, "config": config}
    with duckdb.get_connection() as conn:
        asked = question_readings(read_partition(conn, "questions", {"corpus": corpus}), frame, rules)
        path = store(conn, root, TABLE, frame, pair)
        store(conn, root, READINGS, asked.assign(**pair), pair)
    counts = frame["verdict"].value_counts().to_dict() if len(frame) else {}
    tentative = int((~frame["firm"].astype(bool) & frame["error"].isna()).sum()) if len(frame) else 0
    return Made(
        metadata={
            "dagster/row_count": len(frame),
            "parquet": str(path),
            "rules_version": rules.version,
            "tentative": tentative,
            **{v: int(counts.get(v, 0)) for v in ("correct", "partial", "wrong", "ungradable")},
        },
        data_version=data_version(frame),
    )


rule_verdicts = sharded_asset(
    Stage(TABLE, plan_rule_shards, grade_shard, store_rule_shards),
    outs={
        TABLE: AssetOut(
            description="What the rules alone decide about each answer: verdict, declined flag, failure label, "
            "deciding rule, matched spans and whether the verdict is firm. Graded once per pair (in shards by "
            "question-id hash, `RAGPIPE_SHARDS`); the judge reads the tentative ones from here and `grades` "
            "combines the two without grading again. Its code version is the rules' version: a rules change "
            "makes it (and what follows) stale, nothing upstream.",
            kinds={"duckdb"},
        )
    },
    deps=tuple(deps(TABLE)),
    partitions_def=pair_partitions,
    group_name="grading",
    description="Grade every answer of a pair by the rules, in shards.",
)
