"""Which question file a corpus's `questions` table was read from, by fingerprint.

Questions and their needles are inputs of every grade: an edit to the file (a gold answer, a money key)
left the table as it was, and a regrade graded on the old gold without a word. The questions stage
records the fingerprint of what it read (`question_sources`); a regrade reads the file again (milliseconds)
and reloads the corpus's questions and needles first when the two differ.
"""

from __future__ import annotations

import json

import duckdb
import pandas as pd

from ragpipe.corpus.adapters import data_available, read_corpus_questions
from ragpipe.corpus.manifest import CorpusManifest
from ragpipe.corpus.questions import LoadedQuestions
from ragpipe.inputs.fingerprint import digest
from ragpipe.warehouse.tables import read_partition, table_exists

TABLE = "question_sources"


def fingerprint(loaded: LoadedQuestions) -> str:
    """What a question file said, as read: its questions and the problems of its refused rows."""
    said = [[q.model_dump(mode="json") for q in loaded.questions], [str(p) for p in loaded.problems]]
    return digest(json.dumps(said, sort_keys=True, default=str))


def source_frame(corpus: str, loaded: LoadedQuestions) -> pd.DataFrame:
    """The `question_sources` row of one corpus: the fingerprint of what its questions stage read."""
    return pd.DataFrame({"corpus": [corpus], "fingerprint": [fingerprint(loaded)]})


def edited_since_loaded(conn: duckdb.DuckDBPyConnection, manifest: CorpusManifest) -> bool:
    """Whether the corpus's question file now says something else than its stored questions were read from
    (a warehouse that holds questions without a fingerprint, from before it was kept, counts as edited:
    reloading costs a moment). False where nothing is stored yet or the corpus's data is not here."""
    keys = {"corpus": manifest.name}
    if not table_exists(conn, "questions") or not data_available(manifest):
        return False
    if read_partition(conn, "questions", keys).empty:
        return False
    stored = read_partition(conn, TABLE, keys) if table_exists(conn, TABLE) else pd.DataFrame()
    documents = set(read_partition(conn, "documents", keys)["doc_id"]) | set(
        read_partition(conn, "failed_documents", keys)["doc_id"]
    )
    now = fingerprint(read_corpus_questions(manifest, documents))
    return stored.empty or stored["fingerprint"].iloc[0] != now


def edited_files(conn: duckdb.DuckDBPyConnection, manifests: dict[str, CorpusManifest], corpora) -> dict[str, str]:
    """corpus -> its question file (or "its data"), for each of `corpora` whose file changed since its
    questions were read: what `ragpipe regrade` reads again and `ragpipe scorecard` warns of."""
    return {
        c: manifests[c].questions or "its data"
        for c in sorted(corpora)
        if c in manifests and edited_since_loaded(conn, manifests[c])
    }
