"""Corpus-level assets: PDFs to pages, questions, and needles mined from gold answers."""

from dagster import AssetExecutionContext, AssetSpec, MaterializeResult, MetadataValue, asset, multi_asset
from dagster_duckdb import DuckDBResource

from assets.partitions import corpus_partitions
from assets.resources import Project
from assets.versions import data_version
from ragpipe.corpus.adapters import pdf_folder, read_corpus_questions
from ragpipe.corpus.ingest import ingest_folder, stored_ingest
from ragpipe.corpus.needles import mine_needles
from ragpipe.corpus.passages import locate_passages
from ragpipe.corpus.preflight import CorpusRefused, check_corpus
from ragpipe.corpus.questions import problems_frame, question_from_row, questions_frame
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.tables import read_partition, store


@multi_asset(
    specs=[
        AssetSpec(
            "documents",
            description="One row per readable PDF: content hash, page count, characters, extractor.",
            group_name="corpus",
            kinds={"duckdb", "pdf"},
        ),
        AssetSpec(
            "pages",
            description="Text of every page (1-indexed) of every readable PDF.",
            group_name="corpus",
            kinds={"duckdb"},
        ),
        AssetSpec(
            "failed_documents",
            description="PDFs that could not be read, with the reason in words; the rest still ingest.",
            group_name="corpus",
            kinds={"duckdb"},
        ),
    ],
    partitions_def=corpus_partitions,
)
def ingest(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project):
    """Extract every PDF of the corpus (pypdfium2, pypdf fallback); a PDF whose path and content hash
    the warehouse already holds is reused, not parsed again."""
    corpus = context.partition_key
    manifest = project.manifest(corpus)
    folder = pdf_folder(manifest, project.root)
    check_corpus(manifest, folder)  # bad questions refuse the corpus here, before anything is written
    project.root.mkdir(parents=True, exist_ok=True)  # a new warehouse folder (RAGPIPE_WAREHOUSE) starts empty
    keys = {"corpus": corpus}
    with duckdb.get_connection() as conn:
        previous = stored_ingest(conn, corpus)
    result = ingest_folder(corpus, folder, previous=previous)  # unchanged PDFs are not parsed again
    with duckdb.get_connection() as conn:
        paths = {
            name: store(conn, project.root, name, frame, keys)
            for name, frame in [
                ("documents", result.documents),
                ("pages", result.pages),
                ("failed_documents", result.failed),
            ]
        }
    yield MaterializeResult(
        asset_key="documents",
        data_version=data_version(result.documents),
        metadata={
            "dagster/row_count": len(result.documents),
            "folder": str(folder),
            "parquet": str(paths["documents"]),
            "pdfs_parsed": result.parsed,
            "pdfs_reused": result.reused,
            "pages": int(result.documents["pages"].sum()),
        },
    )
    yield MaterializeResult(
        asset_key="pages",
        data_version=data_version(result.pages),
        metadata={
            "dagster/row_count": len(result.pages),
            "empty_pages": int((result.pages["chars"] == 0).sum()),
            "parquet": str(paths["pages"]),
        },
    )
    yield MaterializeResult(
        asset_key="failed_documents",
        data_version=data_version(result.failed),
        metadata={
            "dagster/row_count": len(result.failed),
            "failures": MetadataValue.md(
                "\n".join(f"- `{r.file}`: {r.reason}" for r in result.failed.itertuples()) or "none"
            ),
        },
    )


@multi_asset(
    specs=[
        AssetSpec(
            "questions",
            description=(
                "The corpus's questions, validated: kind, gold answer, golden documents and pages (1-indexed), "
                "authored needles, money key, upstream evidence."
            ),
            group_name="corpus",
            kinds={"duckdb"},
            deps=["documents", "failed_documents", "pages"],
        ),
        AssetSpec(
            "question_problems",
            description=(
                "Question rows that could not be used, naming file, line and field; the rest of the corpus still loads."
            ),
            group_name="corpus",
            kinds={"duckdb"},
            deps=["documents", "failed_documents"],
        ),
    ],
    partitions_def=corpus_partitions,
)
def questions(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project):
    """Read the corpus's questions through its adapter; a golden passage without a page is located in
    the pages of its document (corpus/passages.py), so section qrels become page qrels."""
    corpus = context.partition_key
    keys = {"corpus": corpus}
    with duckdb.get_connection() as conn:
        docs = set(read_partition(conn, "documents", keys)["doc_id"]) | set(
            read_partition(conn, "failed_documents", keys)["doc_id"]
        )
        loaded = read_corpus_questions(project.manifest(corpus), docs)
        if loaded.problems:  # the file changed since ingest checked it: still refused, nothing written
            raise CorpusRefused(corpus, loaded.problems)
        # a golden passage without a page (a benchmark's section) is located in its document's pages
        located = locate_passages(loaded.questions, read_partition(conn, "pages", keys))
        frame = questions_frame(corpus, located)
        problems = problems_frame(corpus, loaded.problems)
        path = store(conn, project.root, "questions", frame, keys)
        store(conn, project.root, "question_problems", problems, keys)
    counts = frame["kind"].value_counts().to_dict()
    yield MaterializeResult(
        asset_key="questions",
        data_version=data_version(frame),
        metadata={
            "dagster/row_count": len(frame),
            "parquet": str(path),
            **{kind: int(counts.get(kind, 0)) for kind in ("answerable", "negative", "ambiguous")},
        },
    )
    yield MaterializeResult(
        asset_key="question_problems",
        data_version=data_version(problems),
        metadata={
            "dagster/row_count": len(problems),
            "problems": MetadataValue.md("\n".join(f"- {p}" for p in loaded.problems[:50]) or "none"),
        },
    )


@asset(partitions_def=corpus_partitions, group_name="corpus", kinds={"duckdb"}, deps=["pages", "questions"])
def needles(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """Figures mined from gold answers: kept when the gold text has them and the question does not,
    else rejected with the reason."""
    corpus = context.partition_key
    keys = {"corpus": corpus}
    with duckdb.get_connection() as conn:
        pages = read_partition(conn, "pages", keys)
        qs = [question_from_row(r) for r in records(read_partition(conn, "questions", keys))]
        frame = mine_needles(corpus, qs, pages)
        path = store(conn, project.root, "needles", frame, keys)
    return MaterializeResult(
        data_version=data_version(frame),
        metadata={
            "dagster/row_count": len(frame),
            "parquet": str(path),
            "kept": int((frame["status"] == "kept").sum()),
            "rejected": int((frame["status"] == "rejected").sum()),
        },
    )
