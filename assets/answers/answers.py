"""The system under test answers every question of the corpus for one configuration.

Answering is cut into shards by question-id hash (`RAGPIPE_SHARDS`): each shard
step reads Parquet, asks its questions and writes Parquet, so a multiprocess or
Kubernetes executor runs shards side by side; one step stores them in DuckDB.
"""

from pathlib import Path

import pandas as pd
from dagster import AssetOut, MetadataValue, OpExecutionContext, Output
from dagster_duckdb import DuckDBResource

from assets.shared.partitions import pair_of, pair_partitions
from assets.shared.progress import progress_reporter
from assets.shared.resources import Project
from assets.shared.sharded import Stage, sharded_asset
from assets.shared.versions import data_version
from ragpipe.answering.answer_sets import store_answer_sets
from ragpipe.answering.engines import RetrievalContext
from ragpipe.answering.imports import import_answers
from ragpipe.answering.log import FileLog, absorb_file_logs, log_dir, logged_answers, logged_in_file
from ragpipe.answering.run import answer_questions
from ragpipe.answering.shards import consolidate, read, split, write
from ragpipe.answering.system import system_for
from ragpipe.corpus.questions import question_from_row
from ragpipe.retrieval.index import ChunkIndex
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.tables import parquet_path, read_partition, write_parquet


def plan_answer_shards(context: OpExecutionContext, duckdb: DuckDBResource, project: Project, work: Path):
    """Absorb earlier shard logs, then hand each shard its questions (Parquet) and its already-logged answers."""
    corpus, config = pair_of(context.partition_key)
    keys = {"corpus": corpus, "config": config}
    system = system_for(project.config(corpus, config))
    with duckdb.get_connection() as conn:
        absorb_file_logs(conn, log_dir(project.root, corpus, config))  # answers a killed run logged
        done = logged_answers(conn, corpus, config, system.answer_set, system.settings_key)
        questions = read_partition(conn, "questions", {"corpus": corpus}, order_by="question_id")
        if not parquet_path(project.root, "chunks", keys).is_file():  # shards read the chunks' Parquet copy
            write_parquet(project.root, "chunks", read_partition(conn, "chunks", keys), keys)
    shards = []
    for k, part in enumerate(split(questions, project.shards)):
        mine = {q: done[q] for q in part["question_id"] if q in done}
        shards.append({"questions": write(part, work / f"questions-{k}.parquet"), "done": mine})
    return None, shards


def answer_shard(context: OpExecutionContext, project: Project, shard: dict):
    """Ask one shard's questions that have no logged answer; each answer is logged to the shard's file
    as it completes."""
    corpus, config = pair_of(context.partition_key)
    system = system_for(project.config(corpus, config))
    chunk_rows = read(parquet_path(project.root, "chunks", {"corpus": corpus, "config": config})).set_index("chunk_id")
    retrieval = RetrievalContext(ChunkIndex.load(project.index_dir(corpus, config)), chunk_rows, system.knobs.top_k)
    qs = [question_from_row(r) for r in records(read(shard["questions"]))]
    log_path = log_dir(project.root, corpus, config) / f"{context.run_id}-{shard['shard']}.jsonl"
    done = {**shard["done"], **logged_in_file(log_path, system.settings_key)}  # a redelivered step resumes
    log = FileLog(log_path, system.settings_key)
    try:
        frame = answer_questions(
            system.engine,
            qs,
            retrieval,
            corpus,
            config,
            system.answer_set,
            system.settings,
            progress=progress_reporter(
                context.log, "answering", f"{system.answer_set} shard {shard['shard']}", project.progress_bar
            ),
            concurrency=system.knobs.concurrency,
            done=done,
            on_answer=log,
        )
    finally:
        log.close()
    path = write(frame, Path(shard["questions"]).with_name(f"answers-{shard['shard']}.parquet"))
    return {"path": path, "asked": len(qs) - len(done), "resumed": len(done)}, {}


def store_answers(context: OpExecutionContext, duckdb: DuckDBResource, project: Project, _, shards: list[dict]):
    """The one writer: the shards' answers (in question order) plus the corpus's imported answer sets, each
    replacing its own answer set's rows; the pair's other answer sets are left as they are."""
    corpus, config = pair_of(context.partition_key)
    system = system_for(project.config(corpus, config))
    frame = consolidate([s["path"] for s in shards], ["question_id"])
    with duckdb.get_connection() as conn:
        known = set(read_partition(conn, "questions", {"corpus": corpus})["question_id"])
        imported, problems = import_answers(project.manifest(corpus), corpus, config, known)
        if len(imported):
            frame = pd.concat([frame, imported], ignore_index=True)
        absorb_file_logs(conn, log_dir(project.root, corpus, config))
        stored, path, pruned = store_answer_sets(conn, project.root, frame, corpus, config, known)
    for problem in problems:
        context.log.warning(f"import skipped {problem}")
    latency = frame["latency_ms"].dropna()
    held = {
        name: {"rows": len(rows), "data_version": data_version(rows.reset_index(drop=True)).value}
        for name, rows in stored.groupby("answer_set")
    }
    metadata = {
        "dagster/row_count": len(stored),
        "parquet": str(path),
        "answer_set": system.answer_set,
        "engine": system.engine.name,
        "errors": int(frame["error"].notna().sum()),
        "resumed": sum(s["resumed"] for s in shards),
        "asked": sum(s["asked"] for s in shards),
        "shards": len(shards),
        "answers_to_removed_questions_pruned": pruned,
        "concurrency": system.knobs.concurrency,
        # every system the pair holds, with its rows and a fingerprint: one that did not run is unchanged
        "answer_sets": MetadataValue.json(held),
        "imported": int((frame["engine"] == "import").sum()),
        "median_latency_ms": float(latency.median()) if len(latency) else 0.0,
    }
    return [Output(None, "answers", data_version=data_version(stored), metadata=metadata)]


answers = sharded_asset(
    Stage("answers", plan_answer_shards, answer_shard, store_answers),
    outs={
        "answers": AssetOut(
            description="One answer per question from the engine run (its answer set), with citations, latency "
            "and engine settings; plus the corpus's imported answer sets (e.g. FinanceBench's human-labelled model "
            "answers). Every other answer set the pair holds (another engine run on it before) is kept as it was.",
            kinds={"duckdb"},
        )
    },
    deps=("chunk_index", "questions"),
    partitions_def=pair_partitions,
    group_name="answers",
    description="Answer every question of a pair, in shards.",
)
