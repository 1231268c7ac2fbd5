"""Ingest: PDFs to documents, pages and failed documents, the parsing cut into shards.

One step plans where the warehouse is (hash every PDF, compare with what is
stored), shard steps parse their share of the new or changed files on any
worker that reaches the corpus folder (Parquet out, no warehouse connection),
and one step stores the three tables in the plan's order, so the number of
shards never changes a row (`RAGPIPE_SHARDS`; `ragpipe run --executor celery`).
"""

from pathlib import Path

from dagster import AssetOut, MetadataValue, OpExecutionContext, Output
from dagster_duckdb import DuckDBResource

from assets.shared.partitions import corpus_partitions
from assets.shared.progress import progress_reporter
from assets.shared.resources import Project
from assets.shared.sharded import Stage, sharded_asset
from assets.shared.versions import data_version
from ragpipe.answering.shards import read, write
from ragpipe.corpus.adapters import pdf_folder
from ragpipe.corpus.ingest import Ingested, IngestPlan, assemble, extract_files, plan_ingest, shard_files, stored_ingest
from ragpipe.corpus.preflight import check_corpus
from ragpipe.warehouse.tables import store

TABLES = {"documents": "documents", "pages": "pages", "failed": "failed_documents"}


def plan_ingest_shards(context: OpExecutionContext, duckdb: DuckDBResource, project: Project, work: Path):
    """Refuse a corpus whose questions are bad before anything is written; hash its PDFs; hand each
    shard its share (by size) of the files the warehouse does not hold yet."""
    corpus = context.partition_key
    manifest = project.manifest(corpus)
    folder = pdf_folder(manifest, project.root)
    check_corpus(manifest, folder)
    project.root.mkdir(parents=True, exist_ok=True)  # a new warehouse folder (RAGPIPE_WAREHOUSE) starts empty
    with duckdb.get_connection() as conn:
        previous = stored_ingest(conn, corpus, pages=False)
    plan = plan_ingest(corpus, folder, previous)
    return plan, [{"folder": str(folder), "files": files} for files in shard_files(plan, project.shards)]


def extract_shard(context: OpExecutionContext, project: Project, shard: dict):
    """Parse one shard's PDFs (capped worker processes, `RAGPIPE_EXTRACT_WORKERS` of them) to Parquet."""
    said = progress_reporter(
        context.log, "parsing", f"{context.partition_key} shard {shard['shard']}", project.progress_bar
    )
    result = extract_files(context.partition_key, Path(shard["folder"]), shard["files"], progress=said)
    work = Path(shard["work"])
    paths = {name: write(getattr(result, name), work / f"{name}-{shard['shard']}.parquet") for name in TABLES}
    return {**paths, "parsed": result.parsed}, {"pdfs": len(shard["files"])}


def store_ingest(context: OpExecutionContext, duckdb: DuckDBResource, project: Project, plan: IngestPlan, shards):
    """The one writer: the warehouse's rows for unchanged files and the shards' for the rest, in file
    order, replacing the corpus's three tables."""
    corpus = context.partition_key
    keys = {"corpus": corpus}
    parsed = [
        Ingested(read(s["documents"]), read(s["pages"]), read(s["failed"]), parsed=s["parsed"])
        for s in shards  # in any order: `assemble` puts the rows in the plan's
    ]
    with duckdb.get_connection() as conn:
        result = assemble(corpus, plan, parsed, stored_ingest(conn, corpus))
        paths = {table: store(conn, project.root, table, getattr(result, name), keys) for name, table in TABLES.items()}
    documents = {
        "dagster/row_count": len(result.documents),
        "folder": str(plan.folder),
        "parquet": str(paths["documents"]),
        "pdfs_parsed": result.parsed,
        "pdfs_reused": result.reused,
        "pages": int(result.documents["pages"].sum()),
        "shards": len(shards),
    }
    pages = {
        "dagster/row_count": len(result.pages),
        "empty_pages": int((result.pages["chars"] == 0).sum()),
        "parquet": str(paths["pages"]),
    }
    failures = "\n".join(f"- `{r.file}`: {r.reason}" for r in result.failed.itertuples()) or "none"
    failed = {"dagster/row_count": len(result.failed), "failures": MetadataValue.md(failures)}
    return [
        Output(None, "documents", data_version=data_version(result.documents), metadata=documents),
        Output(None, "pages", data_version=data_version(result.pages), metadata=pages),
        Output(None, "failed_documents", data_version=data_version(result.failed), metadata=failed),
    ]


ingest = sharded_asset(
    Stage("ingest", plan_ingest_shards, extract_shard, store_ingest),
    outs={
        "documents": AssetOut(
            description="One row per readable PDF: content hash, page count, characters, extractor.",
            kinds={"duckdb", "pdf"},
        ),
        "pages": AssetOut(description="Text of every page (1-indexed) of every readable PDF.", kinds={"duckdb"}),
        "failed_documents": AssetOut(
            description="PDFs that could not be read, with the reason in words; the rest still ingest.",
            kinds={"duckdb"},
        ),
    },
    deps=(),
    partitions_def=corpus_partitions,
    group_name="corpus",
    description="Extract every PDF of the corpus (pypdfium2, pypdf fallback); a PDF whose path and content hash "
    "the warehouse already holds is reused, not parsed again.",
)
