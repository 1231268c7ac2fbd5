"""Ingest a folder of PDFs into three tables: documents, pages, failed documents.

One unreadable file becomes a row in `failed_documents` with the reason in
words; every other file still ingests. Page numbers are 1-indexed, as a PDF
viewer shows them (FinanceBench's zero-indexed evidence pages are shifted by
its adapter on the way in).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ragpipe.corpus.extract import EXTRACTOR_VERSION
from ragpipe.corpus.extract_pool import extract_bounded
from ragpipe.inputs.text import valid_text
from ragpipe.warehouse.nulls import records

DOCUMENT_COLUMNS = [
    "corpus",
    "doc_id",
    "file",
    "sha256",
    "bytes",
    "pages",
    "chars",
    "empty_pages",
    "extractor",
    "warnings",
    "extractor_version",
]
PAGE_COLUMNS = ["corpus", "doc_id", "page", "text", "chars"]
FAILED_COLUMNS = ["corpus", "doc_id", "file", "sha256", "reason", "extractor_version"]


@dataclass
class Ingested:
    documents: pd.DataFrame
    pages: pd.DataFrame
    failed: pd.DataFrame
    parsed: int = 0
    reused: int = 0


def doc_id_for(path: Path, folder: Path | None = None) -> str:
    """A document's id is its path under the corpus folder without `.pdf`: its file name for a file at
    the top (every shipped corpus), `sub/name` below it, so two `name.pdf` in different subfolders are
    two documents, not one silently dropped. Stable and readable."""
    relative = path.relative_to(folder) if folder is not None else Path(path.name)
    return relative.with_suffix("").as_posix()


def unreadable_name(rel: str) -> str | None:
    """Why a file's name cannot be stored (bytes that are not UTF-8, kept by Python as lone surrogates), if so."""
    if valid_text(rel) == rel:
        return None
    return f"file name is not UTF-8 text ({valid_text(rel)!r}): rename the file to ingest it"


def pdf_files(folder: Path) -> list[Path]:
    """Every `*.pdf` under `folder`, sorted, so row order is stable."""
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file())


def ingest_folder(
    corpus: str, folder: Path, progress=None, previous: Ingested | None = None, workers: int | None = None
) -> Ingested:
    """Extract every `*.pdf` under `folder` (sorted, so row order is stable).

    With `previous` (what the warehouse already holds for this corpus), a file
    whose path and content hash are unchanged is not parsed again: its rows
    are reused, and only new or changed PDFs are read. `parsed` and `reused`
    on the result say how many of each.

    New PDFs are parsed by up to `workers` processes (default: one per core),
    each under a memory cap and a time limit (`extract_pool`); they only
    return text, and the caller is the one writer that stores it.
    """
    if not folder.is_dir():
        raise FileNotFoundError(f"corpus {corpus!r}: PDF folder {folder} does not exist")
    known_docs, known_failed, known_pages = _previous(previous)
    docs, pages, failed = [], [], []
    parsed = reused = 0
    files = pdf_files(folder)
    hashed = [(path, str(path.relative_to(folder)), _sha256(path)) for path in files]
    # a row stored under another id (a subfolder's file, ingested when ids were bare file names) is read again
    for known in (known_docs, known_failed):
        for path, rel, digest in hashed:
            if (rel, digest) in known and known[(rel, digest)][1] != doc_id_for(path, folder):
                del known[(rel, digest)]
    to_parse = [
        path
        for path, rel, digest in hashed
        if (rel, digest) not in known_docs and (rel, digest) not in known_failed and not unreadable_name(rel)
    ]
    outcomes = extract_bounded(to_parse, workers)
    for path, rel, digest in hashed:
        doc_id = doc_id_for(path, folder)
        if refused := unreadable_name(rel):
            failed.append([corpus, valid_text(doc_id), valid_text(rel), digest, refused, EXTRACTOR_VERSION])
        elif (rel, digest) in known_docs:
            reused += 1
            docs.append(known_docs[(rel, digest)])
            pages.extend(known_pages.get(doc_id, []))
        elif (rel, digest) in known_failed:
            reused += 1
            failed.append(known_failed[(rel, digest)])
        else:
            parsed += 1
            size, extracted = next(outcomes)
            if isinstance(extracted, str):
                failed.append([corpus, doc_id, rel, digest, extracted, EXTRACTOR_VERSION])
            else:
                texts = extracted.pages
                docs.append(
                    [
                        corpus,
                        doc_id,
                        rel,
                        digest,
                        size,
                        len(texts),
                        sum(len(t) for t in texts),
                        sum(1 for t in texts if not t.strip()),
                        extracted.extractor,
                        "; ".join(extracted.warnings),
                        EXTRACTOR_VERSION,
                    ]
                )
                pages.extend([corpus, doc_id, i + 1, t, len(t)] for i, t in enumerate(texts))
        if progress is not None:
            progress(path)
    return Ingested(
        documents=pd.DataFrame(docs, columns=DOCUMENT_COLUMNS),
        pages=pd.DataFrame(pages, columns=PAGE_COLUMNS),
        failed=pd.DataFrame(failed, columns=FAILED_COLUMNS),
        parsed=parsed,
        reused=reused,
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _previous(previous: Ingested | None) -> tuple[dict, dict, dict]:
    """Rows of a previous ingest, keyed by (file, sha256), and its pages by document. Rows an older
    extractor wrote (another `extractor_version`, or none) are not reused: the file is read again."""
    if previous is None:
        return {}, {}, {}

    def rows(frame: pd.DataFrame, columns: list[str]) -> list[dict]:
        if "extractor_version" in columns:
            if "extractor_version" not in frame.columns:
                return []
            frame = frame[frame["extractor_version"] == EXTRACTOR_VERSION]
        return records(frame[columns])

    docs = {(r["file"], r["sha256"]): list(r.values()) for r in rows(previous.documents, DOCUMENT_COLUMNS)}
    failed = {(r["file"], r["sha256"]): list(r.values()) for r in rows(previous.failed, FAILED_COLUMNS)}
    pages: dict[str, list] = {}
    for r in rows(previous.pages.sort_values(["doc_id", "page"]), PAGE_COLUMNS):
        pages.setdefault(r["doc_id"], []).append(list(r.values()))
    return docs, failed, pages


def stored_ingest(conn, corpus: str) -> Ingested | None:
    """What the warehouse holds for `corpus` from earlier ingests, if anything."""
    from ragpipe.warehouse.tables import read_partition, table_exists

    if not all(table_exists(conn, t) for t in ("documents", "pages", "failed_documents")):
        return None
    keys = {"corpus": corpus}
    return Ingested(
        documents=read_partition(conn, "documents", keys),
        pages=read_partition(conn, "pages", keys),
        failed=read_partition(conn, "failed_documents", keys),
    )
