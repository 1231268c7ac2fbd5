"""Split page text into overlapping chunks that remember their pages.

Chunks are built from whole lines so a statement's "Label: value" rows stay
intact for the extractive engine; a line longer than a chunk is cut by words.
Each chunk carries its document and the first and last page it spans.
"""

from __future__ import annotations

import pandas as pd

CHUNK_COLUMNS = ["corpus", "config", "chunk_id", "doc_id", "page_start", "page_end", "text", "words"]


def _units(pages: pd.DataFrame, size: int) -> list[tuple[int, str, int]]:
    units = []
    for page, text in zip(pages["page"], pages["text"]):
        for line in text.splitlines():
            words = line.split()
            for start in range(0, len(words), size):
                piece = words[start : start + size]
                if piece:
                    units.append((int(page), " ".join(piece), len(piece)))
    return units


def chunk_document(pages: pd.DataFrame, size: int, overlap: int) -> list[tuple[int, int, str, int]]:
    """(page_start, page_end, text, words) for one document's pages in order."""
    units = _units(pages.sort_values("page"), size)
    chunks = []
    start = 0
    while start < len(units):
        end, words = start, 0
        while end < len(units) and (words == 0 or words + units[end][2] <= size):
            words += units[end][2]
            end += 1
        window = units[start:end]
        chunks.append((window[0][0], window[-1][0], "\n".join(u[1] for u in window), words))
        if end >= len(units):
            break
        # step back over whole lines until `overlap` words are shared, never stalling
        back, shared = end, 0
        while back - 1 > start and shared + units[back - 1][2] <= overlap:
            back -= 1
            shared += units[back][2]
        start = back
    return chunks


def chunk_pages(pages: pd.DataFrame, corpus: str, config: str, size: int, overlap: int) -> pd.DataFrame:
    """Chunks of every document in `pages`; ids are `<doc_id>#<n>`."""
    rows = []
    for doc_id, doc_pages in pages.groupby("doc_id", sort=True):
        for n, (p0, p1, text, words) in enumerate(chunk_document(doc_pages, size, overlap)):
            rows.append([corpus, config, f"{doc_id}#{n:04d}", doc_id, p0, p1, text, words])
    return pd.DataFrame(rows, columns=CHUNK_COLUMNS)
