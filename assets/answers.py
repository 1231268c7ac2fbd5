"""The system under test answers every question of the corpus for one configuration."""

import pandas as pd
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.partitions import pair_of, pair_partitions
from assets.resources import Project
from ragpipe.answer_log import log_answer, logged_answers
from ragpipe.answering import answer_questions, settings_hash
from ragpipe.progress import progress_reporter
from ragpipe.engines import RetrievalContext, make_engine
from ragpipe.imports import import_answers
from ragpipe.questions import question_from_row
from ragpipe.retrieval import ChunkIndex
from ragpipe.warehouse import read_partition, store


@asset(partitions_def=pair_partitions, group_name="answers", kinds={"duckdb"}, deps=["chunk_index", "questions"])
def answers(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """One answer per question from the configured engine, with citations, latency and engine settings;
    plus the corpus's imported answer sets (e.g. FinanceBench's human-labelled model answers)."""
    corpus, config = pair_of(context.partition_key)
    knobs = project.config(corpus, config)
    engine = make_engine(knobs.engine, knobs.engine_settings)
    with duckdb.get_connection() as conn:
        chunk_rows = read_partition(conn, "chunks", {"corpus": corpus, "config": config}).set_index("chunk_id")
        qs = [question_from_row(r) for r in read_partition(conn, "questions", {"corpus": corpus}, order_by="question_id").to_dict("records")]
    retrieval = RetrievalContext(ChunkIndex.load(project.index_dir(corpus, config)), chunk_rows, knobs.top_k)
    settings = {**engine.settings, "top_k": knobs.top_k, "chunk_size": knobs.chunk_size, "chunk_overlap": knobs.chunk_overlap}
    answer_set = getattr(engine, "answer_set", engine.name)
    key = settings_hash(engine.name, settings)
    with duckdb.get_connection() as conn:
        done = logged_answers(conn, corpus, config, answer_set, key)
        frame = answer_questions(
            engine, qs, retrieval, corpus, config, answer_set, settings, progress=progress_reporter(context, answer_set),
            concurrency=knobs.concurrency, done=done, on_answer=lambda row: log_answer(conn, row, key),
        )
    imported, problems = import_answers(project.manifest(corpus), corpus, config, {q.id for q in qs})
    for problem in problems:
        context.log.warning(f"import skipped {problem}")
    if len(imported):
        frame = pd.concat([frame, imported], ignore_index=True)
    with duckdb.get_connection() as conn:
        path = store(conn, project.root, "answers", frame, {"corpus": corpus, "config": config})
    return MaterializeResult(metadata={
        "dagster/row_count": len(frame), "parquet": str(path), "engine": engine.name,
        "errors": int(frame["error"].notna().sum()),
        "resumed": len(done),
        "asked": int(len(qs) - len(done)),
        "concurrency": knobs.concurrency,
        "answer_sets": MetadataValue.json(sorted(frame["answer_set"].unique().tolist())),
        "imported": int((frame["engine"] == "import").sum()),
        "median_latency_ms": float(frame["latency_ms"].dropna().median()) if frame["latency_ms"].notna().any() else 0.0,
    })
