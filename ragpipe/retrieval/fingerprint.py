"""Fingerprints of a stage's inputs, so that unchanged work is not redone.

Chunks depend on the pages (which ingest reuses by content hash) and on the
chunking knobs; the BM25 index depends on the chunks. A stage whose stored
fingerprint equals the fingerprint of its current inputs has nothing to do.
"""

from __future__ import annotations

import hashlib
import json

import pandas as pd

CHUNKER_VERSION = "1"  # bump when chunking.py changes what it cuts
FINGERPRINT_COLUMNS = ["stage", "corpus", "config", "fingerprint"]


def _digest(payload) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def chunks_fingerprint(documents: pd.DataFrame, chunk_size: int, chunk_overlap: int) -> str:
    """What the chunks of a pair are cut from: every document's content hash and text size, and the knobs."""
    docs = sorted((str(r.doc_id), str(r.sha256), int(r.pages), int(r.chars)) for r in documents.itertuples())
    return _digest({"documents": docs, "size": chunk_size, "overlap": chunk_overlap, "chunker": CHUNKER_VERSION})


def stored_fingerprint(conn, stage: str, corpus: str, config: str) -> str | None:
    from ragpipe.warehouse.tables import table_exists

    if not table_exists(conn, "stage_fingerprints"):
        return None
    rows = conn.execute(
        "SELECT fingerprint FROM stage_fingerprints WHERE stage = ? AND corpus = ? AND config = ?",
        [stage, corpus, config],
    ).fetchall()
    return rows[0][0] if rows else None


def record_fingerprint(conn, stage: str, corpus: str, config: str, fingerprint: str) -> None:
    from ragpipe.warehouse.tables import replace_partition

    frame = pd.DataFrame([[stage, corpus, config, fingerprint]], columns=FINGERPRINT_COLUMNS)
    replace_partition(conn, "stage_fingerprints", frame, {"stage": stage, "corpus": corpus, "config": config})


def content_version(*frames: pd.DataFrame) -> str:
    """A hash of tables' columns and values, the same for the same content in the same order:
    a stage's data version, so a rerun that changes nothing stales nothing downstream."""
    digest = hashlib.sha256()
    for frame in frames:
        digest.update(json.dumps(list(map(str, frame.columns))).encode())
        digest.update(frame.to_json(orient="values", date_format="iso", default_handler=str).encode())
    return digest.hexdigest()[:24]
