"""Per-pair retrieval assets: chunks cut with the configuration's knobs, their BM25 index, and its score."""

from dagster import AssetExecutionContext, DataVersion, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST
from assets.shared.partitions import pair_of, pair_partitions
from assets.shared.resources import Project
from assets.shared.versions import data_version
from ragpipe.corpus.questions import question_from_row
from ragpipe.retrieval.chunking import chunk_pages
from ragpipe.retrieval.fingerprint import chunks_fingerprint, record_fingerprint, stored_fingerprint
from ragpipe.retrieval.index import ChunkIndex, index_fingerprint, reuse_index
from ragpipe.retrieval.scoring import rank_chunks, score_run, summary, write_trec
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.tables import parquet_path, read_partition, store, table_exists


@asset(
    op_tags=ON_WAREHOUSE_HOST, partitions_def=pair_partitions, group_name="retrieval", kinds={"duckdb"}, deps=["pages"]
)
def chunks(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """Overlapping chunks of whole lines, each with its document and page span (chunk_size/overlap in words)."""
    corpus, config = pair_of(context.partition_key)
    knobs = project.config(corpus, config)
    keys = {"corpus": corpus, "config": config}
    with duckdb.get_connection() as conn:
        fingerprint = chunks_fingerprint(
            read_partition(conn, "documents", {"corpus": corpus}), knobs.chunk_size, knobs.chunk_overlap
        )
        unchanged = stored_fingerprint(conn, "chunks", corpus, config) == fingerprint and table_exists(conn, "chunks")
        if unchanged:  # same pages, same knobs: the stored chunks are the chunks
            frame = conn.execute("SELECT words FROM chunks WHERE corpus = ? AND config = ?", [corpus, config]).df()
            path = parquet_path(project.root, "chunks", keys)
        else:
            pages = read_partition(conn, "pages", {"corpus": corpus}, order_by="doc_id, page")
            frame = chunk_pages(pages, corpus, config, knobs.chunk_size, knobs.chunk_overlap)
            path = store(conn, project.root, "chunks", frame, keys)
            record_fingerprint(conn, "chunks", corpus, config, fingerprint)
    return MaterializeResult(
        data_version=DataVersion(fingerprint),
        metadata={
            "dagster/row_count": len(frame),
            "parquet": str(path),
            "rechunked": not unchanged,
            "fingerprint": fingerprint,
            "chunk_size": knobs.chunk_size,
            "chunk_overlap": knobs.chunk_overlap,
            "mean_words": round(float(frame["words"].mean()), 1) if len(frame) else 0.0,
        },
    )


@asset(
    op_tags=ON_WAREHOUSE_HOST,
    partitions_def=pair_partitions,
    group_name="retrieval",
    kinds={"duckdb", "bm25"},
    deps=["chunks"],
)
def chunk_index(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """A BM25 index (bm25s, Lucene idf, k1=1.5, b=0.75) over the pair's chunks, saved beside the warehouse;
    copied from another configuration of the corpus that cut the same chunks, when one did."""
    corpus, config = pair_of(context.partition_key)
    folder = project.index_dir(corpus, config)
    with duckdb.get_connection() as conn:
        fingerprint = stored_fingerprint(conn, "chunks", corpus, config)
        rebuilt = fingerprint is None or index_fingerprint(folder) != fingerprint
        if rebuilt:
            frame = read_partition(conn, "chunks", {"corpus": corpus, "config": config}, order_by="chunk_id")
    copied = None
    if rebuilt and fingerprint is not None:  # another configuration may have built it from the same chunks
        copied = reuse_index(folder.parent.iterdir() if folder.parent.is_dir() else [], folder, fingerprint)
    if rebuilt and copied is None:  # the saved index was built from other chunks (or is missing)
        index = ChunkIndex.build(frame)
        index.save(folder, fingerprint)
    else:
        index = ChunkIndex.load(folder)
    return MaterializeResult(
        data_version=DataVersion(fingerprint or "empty"),
        metadata={
            "dagster/row_count": index.n_docs,
            "vocabulary": index.vocabulary_size,
            "path": str(folder),
            "rebuilt": rebuilt and copied is None,
            "copied_from": copied.name if copied else "",
        },
    )


@asset(
    op_tags=ON_WAREHOUSE_HOST,
    partitions_def=pair_partitions,
    group_name="retrieval",
    kinds={"duckdb"},
    deps=["chunk_index", "questions"],
)
def retrieval(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """The pair's retrieval scored against the corpus's golden documents and pages (ir_measures):
    golden-document recall@k and MRR, nDCG@10, golden-page hit@k, per question in `retrieval`, the
    ranked chunks in `retrieval_runs`, TREC run and qrels files beside the warehouse."""
    corpus, config = pair_of(context.partition_key)
    knobs = project.config(corpus, config)
    keys = {"corpus": corpus, "config": config}
    with duckdb.get_connection() as conn:
        questions = [question_from_row(r) for r in records(read_partition(conn, "questions", {"corpus": corpus}))]
        chunks = read_partition(conn, "chunks", keys)
    run = rank_chunks(ChunkIndex.load(project.index_dir(corpus, config)), chunks, questions, corpus, config)
    per_question = score_run(run, questions, knobs.top_k).assign(corpus=corpus, config=config, top_k=knobs.top_k)
    with duckdb.get_connection() as conn:
        store(conn, project.root, "retrieval_runs", run, keys)
        path = store(conn, project.root, "retrieval", per_question, keys)
    trec = write_trec(project.root / "trec" / f"corpus={corpus}" / f"config={config}", run, questions, f"bm25-{config}")
    means = summary(per_question, knobs.top_k)
    return MaterializeResult(
        data_version=data_version(per_question, run),
        metadata={
            "dagster/row_count": len(per_question),
            "parquet": str(path),
            **{name: value for name, value in means.items() if value is not None},
            **{name: MetadataValue.path(str(p)) for name, p in trec.items()},
        },
    )
