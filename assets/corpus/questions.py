"""Corpus-level assets after ingest (assets/corpus/ingest.py): questions, and needles mined from gold answers."""

from dagster import AssetExecutionContext, AssetSpec, MaterializeResult, MetadataValue, asset, multi_asset
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST
from assets.shared.partitions import corpus_partitions
from assets.shared.resources import Project
from assets.shared.versions import data_version
from ragpipe.corpus import question_source
from ragpipe.corpus.adapters import read_corpus_questions
from ragpipe.corpus.gold_text import corpus_needles
from ragpipe.corpus.passages import locate_passages
from ragpipe.corpus.preflight import CorpusRefused
from ragpipe.corpus.questions import problems_frame, question_from_row, questions_frame
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.tables import read_partition, store


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
    op_tags=ON_WAREHOUSE_HOST,
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
        store(conn, project.root, question_source.TABLE, question_source.source_frame(corpus, loaded), keys)
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


@asset(
    op_tags=ON_WAREHOUSE_HOST,
    partitions_def=corpus_partitions,
    group_name="corpus",
    kinds={"duckdb"},
    deps=["pages", "questions"],
)
def needles(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """Figures mined from gold answers: kept when the gold text has them and the question does not,
    else rejected with the reason (a corpus without documents: the gold answer is the gold text)."""
    corpus = context.partition_key
    keys = {"corpus": corpus}
    with duckdb.get_connection() as conn:
        pages = read_partition(conn, "pages", keys)
        qs = [question_from_row(r) for r in records(read_partition(conn, "questions", keys))]
        frame = corpus_needles(corpus, qs, pages)
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
