"""Ingest a folder of PDFs into three tables: documents, pages, failed documents.

One unreadable file becomes a row in `failed_documents` with the reason in
words; every other file still ingests. Page numbers are 1-indexed, as a PDF
viewer shows them (FinanceBench's zero-indexed evidence pages are shifted by
its adapter on the way in).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ragpipe.corpus.extract import EXTRACTOR_VERSION
from ragpipe.corpus.extract_pool import extract_bounded
from ragpipe.inputs.text import valid_text
from ragpipe.warehouse.nulls import records

# not hashed into the grader version (grading/version.py)
DECIDES_NO_VERDICT = "page text, which is data: a change shows in the pages' content and the needles' input_sha"

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


@dataclass
class IngestPlan:
    """What an ingest will do, decided where the warehouse is: every PDF as (path under the folder,
    sha256), in order, and which of them must be parsed (new, changed, or stored by an older
    extractor). The parsing can happen anywhere (`extract_files`); `assemble` puts the rows together."""

    folder: Path
    files: list[tuple[str, str]]
    to_parse: list[tuple[str, str]]
    sizes: dict[str, int]


def plan_ingest(corpus: str, folder: Path, previous: Ingested | None = None) -> IngestPlan:
    """Hash every `*.pdf` under `folder` and compare with what the warehouse holds for `corpus`."""
    if not folder.is_dir():
        raise FileNotFoundError(f"corpus {corpus!r}: PDF folder {folder} does not exist")
    files = [(str(path.relative_to(folder)), _sha256(path)) for path in pdf_files(folder)]
    known_docs, known_failed = _known(previous, files)
    to_parse = [
        (rel, digest)
        for rel, digest in files
        if (rel, digest) not in known_docs and (rel, digest) not in known_failed and not unreadable_name(rel)
    ]
    return IngestPlan(folder, files, to_parse, {rel: (folder / rel).stat().st_size for rel, _ in to_parse})


def extract_files(
    corpus: str,
    folder: Path,
    files: list[tuple[str, str]],
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Ingested:
    """The rows of these files (path under `folder`, sha256), each parsed by a capped worker process
    (`extract_pool`; up to `workers`, default RAGPIPE_EXTRACT_WORKERS or one per core). Reads PDFs only:
    one shard of an ingest, runnable on any machine that reaches the folder. `progress(done, total)` is
    called as each file is done."""
    docs: list[Any] = []
    pages: list[Any] = []
    failed: list[Any] = []
    outcomes = extract_bounded([folder / rel for rel, _ in files], workers)
    if progress:
        progress(0, len(files))
    for done, ((rel, digest), (size, extracted)) in enumerate(zip(files, outcomes, strict=True), 1):
        if progress:
            progress(done, len(files))
        doc_id = doc_id_for(Path(rel), Path())
        if isinstance(extracted, str):
            failed.append([corpus, doc_id, rel, digest, extracted, EXTRACTOR_VERSION])
            continue
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
    return _frames(docs, pages, failed, parsed=len(files))


def shard_files(plan: IngestPlan, shards: int) -> list[list[tuple[str, str]]]:
    """The files to parse, dealt to `shards` shards by size (largest first, each to the lightest shard
    so far), so shards finish together; each shard in the plan's order. Which shard parses a file
    never changes a row: `assemble` orders them."""
    loads = [0] * shards
    out: list[list[tuple[str, str]]] = [[] for _ in range(shards)]
    order = {file: i for i, file in enumerate(plan.to_parse)}
    for file in sorted(plan.to_parse, key=lambda f: (-plan.sizes[f[0]], order[f])):
        lightest = loads.index(min(loads))
        out[lightest].append(file)
        loads[lightest] += plan.sizes[file[0]]
    return [sorted(part, key=order.__getitem__) for part in out]


def assemble(corpus: str, plan: IngestPlan, parsed: list[Ingested], previous: Ingested | None = None) -> Ingested:
    """The three tables in the plan's file order: rows `previous` holds for unchanged files, the
    `parsed` shards' rows for the rest, a failed row for a name that cannot be stored."""
    known_docs, known_failed = _known(previous, plan.files)
    known_pages = _known_pages(previous)
    new_docs: dict[Any, Any] = {}
    new_failed: dict[Any, Any] = {}
    new_pages: dict[Any, Any] = {}
    for shard in parsed:
        new_docs.update({(r[2], r[3]): r for r in _rows(shard.documents, DOCUMENT_COLUMNS)})
        new_failed.update({(r[2], r[3]): r for r in _rows(shard.failed, FAILED_COLUMNS)})
        for r in _rows(shard.pages, PAGE_COLUMNS):
            new_pages.setdefault(r[1], []).append(r)
    docs, pages, failed, reused = [], [], [], 0
    for rel, digest in plan.files:
        key, doc_id = (rel, digest), doc_id_for(Path(rel), Path())
        if refused := unreadable_name(rel):
            failed.append([corpus, valid_text(doc_id), valid_text(rel), digest, refused, EXTRACTOR_VERSION])
        elif key in new_docs:
            docs.append(new_docs[key])
            pages.extend(new_pages.get(doc_id, []))
        elif key in new_failed:
            failed.append(new_failed[key])
        elif key in known_docs:
            reused += 1
            docs.append(known_docs[key])
            pages.extend(known_pages.get(doc_id, []))
        elif key in known_failed:
            reused += 1
            failed.append(known_failed[key])
        else:
            raise RuntimeError(f"corpus {corpus!r}: {rel} was neither parsed nor held by the warehouse; ingest again")
    return _frames(docs, pages, failed, parsed=sum(s.parsed for s in parsed), reused=reused)


def ingest_folder(corpus: str, folder: Path, previous: Ingested | None = None, workers: int | None = None) -> Ingested:
    """Extract every `*.pdf` under `folder` (sorted, so row order is stable), in this process.

    With `previous` (what the warehouse already holds for this corpus), a file
    whose path and content hash are unchanged is not parsed again: its rows
    are reused, and only new or changed PDFs are read. `parsed` and `reused`
    on the result say how many of each.

    New PDFs are parsed by up to `workers` processes (default: one per core),
    each under a memory cap and a time limit (`extract_pool`); they only
    return text, and the caller is the one writer that stores it.
    """
    plan = plan_ingest(corpus, folder, previous)
    return assemble(corpus, plan, [extract_files(corpus, folder, plan.to_parse, workers)], previous)


def _frames(docs: list, pages: list, failed: list, parsed: int = 0, reused: int = 0) -> Ingested:
    return Ingested(
        documents=pd.DataFrame(docs, columns=DOCUMENT_COLUMNS),
        pages=pd.DataFrame(pages, columns=PAGE_COLUMNS),
        failed=pd.DataFrame(failed, columns=FAILED_COLUMNS),
        parsed=parsed,
        reused=reused,
    )


def _rows(frame: pd.DataFrame, columns: list[str]) -> list[list]:
    return [list(r.values()) for r in records(frame[columns])] if len(frame) else []


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _known(previous: Ingested | None, files: list[tuple[str, str]]) -> tuple[dict, dict]:
    """Document and failed rows of a previous ingest that `files` may reuse, keyed by (file, sha256).
    Rows an older extractor wrote (another `extractor_version`, or none) are not reused, nor a row
    stored under another id (a subfolder's file, ingested when ids were bare file names): the file is
    read again."""
    if previous is None:
        return {}, {}
    docs = {(r["file"], r["sha256"]): list(r.values()) for r in _current(previous.documents, DOCUMENT_COLUMNS)}
    failed = {(r["file"], r["sha256"]): list(r.values()) for r in _current(previous.failed, FAILED_COLUMNS)}
    for known in (docs, failed):
        for rel, digest in files:
            if (rel, digest) in known and known[(rel, digest)][1] != doc_id_for(Path(rel), Path()):
                del known[(rel, digest)]
    return docs, failed


def _known_pages(previous: Ingested | None) -> dict[str, list]:
    """A previous ingest's page rows by document, in page order (only `assemble` needs them)."""
    pages: dict[str, list] = {}
    if previous is not None:
        for r in _current(previous.pages.sort_values(["doc_id", "page"]), PAGE_COLUMNS):
            pages.setdefault(r["doc_id"], []).append(list(r.values()))
    return pages


def _current(frame: pd.DataFrame, columns: list[str]) -> list[dict]:
    """`frame`'s rows as dicts of `columns`; of a table that records its extractor, only the current one's."""
    if "extractor_version" in columns:
        if "extractor_version" not in frame.columns:
            return []
        frame = frame[frame["extractor_version"] == EXTRACTOR_VERSION]
    return records(frame[columns])


def stored_ingest(conn, corpus: str, pages: bool = True) -> Ingested | None:
    """What the warehouse holds for `corpus` from earlier ingests, if anything; without its `pages`
    (an empty frame) for planning, which needs the documents' hashes alone."""
    from ragpipe.warehouse.tables import read_partition, table_exists

    if not all(table_exists(conn, t) for t in ("documents", "pages", "failed_documents")):
        return None
    keys = {"corpus": corpus}
    return Ingested(
        documents=read_partition(conn, "documents", keys),
        pages=read_partition(conn, "pages", keys) if pages else pd.DataFrame(columns=PAGE_COLUMNS),
        failed=read_partition(conn, "failed_documents", keys),
    )
