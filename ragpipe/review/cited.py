"""The chunks an answer cites, read once for the review report and the labelling page alike."""

from __future__ import annotations

from ragpipe.warehouse.tables import table_exists


def cited_passages(conn, corpus: str, config: str, chunk_ids) -> dict[str, dict]:
    """chunk_id -> the chunk as the engine saw it (chunk_id, doc_id, page_start, page_end, text), for
    `chunk_ids` only: a pair holds tens of thousands of chunks, its answers cite a few dozen."""
    if not chunk_ids or not table_exists(conn, "chunks"):
        return {}
    rows = conn.execute(
        "SELECT chunk_id, doc_id, page_start, page_end, text FROM chunks WHERE corpus = ? AND config = ? "
        "AND chunk_id IN (SELECT unnest(?::VARCHAR[]))",
        [corpus, config, sorted(chunk_ids)],
    ).fetchall()
    names = ("chunk_id", "doc_id", "page_start", "page_end", "text")
    return {row[0]: dict(zip(names, row)) for row in rows}
