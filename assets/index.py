"""Per-pair retrieval assets: chunks cut with the configuration's knobs, and their BM25 index."""

from dagster import AssetExecutionContext, MaterializeResult, asset
from dagster_duckdb import DuckDBResource

from assets.partitions import pair_of, pair_partitions
from assets.resources import Project
from ragpipe.chunking import chunk_pages
from ragpipe.retrieval import ChunkIndex
from ragpipe.warehouse import read_partition, store


@asset(partitions_def=pair_partitions, group_name="retrieval", kinds={"duckdb"}, deps=["pages"])
def chunks(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """Overlapping chunks of whole lines, each with its document and page span (chunk_size/overlap in words)."""
    corpus, config = pair_of(context.partition_key)
    knobs = project.config(corpus, config)
    with duckdb.get_connection() as conn:
        pages = read_partition(conn, "pages", {"corpus": corpus}, order_by="doc_id, page")
        frame = chunk_pages(pages, corpus, config, knobs.chunk_size, knobs.chunk_overlap)
        path = store(conn, project.root, "chunks", frame, {"corpus": corpus, "config": config})
    return MaterializeResult(metadata={
        "dagster/row_count": len(frame), "parquet": str(path),
        "chunk_size": knobs.chunk_size, "chunk_overlap": knobs.chunk_overlap,
        "mean_words": round(float(frame["words"].mean()), 1) if len(frame) else 0.0,
    })


@asset(partitions_def=pair_partitions, group_name="retrieval", kinds={"duckdb", "bm25"}, deps=["chunks"])
def chunk_index(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """A BM25 index (bm25s, Lucene idf, k1=1.5, b=0.75) over the pair's chunks, saved beside the warehouse."""
    corpus, config = pair_of(context.partition_key)
    with duckdb.get_connection() as conn:
        frame = read_partition(conn, "chunks", {"corpus": corpus, "config": config}, order_by="chunk_id")
    index = ChunkIndex.build(frame)
    folder = project.index_dir(corpus, config)
    index.save(folder)
    return MaterializeResult(metadata={
        "dagster/row_count": len(frame), "vocabulary": index.vocabulary_size, "path": str(folder),
    })
