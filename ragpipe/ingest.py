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

from ragpipe.extract import ExtractionError, extract_pdf

DOCUMENT_COLUMNS = ["corpus", "doc_id", "file", "sha256", "bytes", "pages", "chars", "empty_pages", "extractor", "warnings"]
PAGE_COLUMNS = ["corpus", "doc_id", "page", "text", "chars"]
FAILED_COLUMNS = ["corpus", "doc_id", "file", "sha256", "reason"]


@dataclass
class Ingested:
    documents: pd.DataFrame
    pages: pd.DataFrame
    failed: pd.DataFrame


def doc_id_for(path: Path) -> str:
    """A document's id is its file name without `.pdf`: stable and readable."""
    return path.stem


def ingest_folder(corpus: str, folder: Path, progress=None) -> Ingested:
    """Extract every `*.pdf` under `folder` (sorted, so row order is stable)."""
    if not folder.is_dir():
        raise FileNotFoundError(f"corpus {corpus!r}: PDF folder {folder} does not exist")
    docs, pages, failed = [], [], []
    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file())
    for path in files:
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        doc_id = doc_id_for(path)
        rel = str(path.relative_to(folder))
        try:
            extracted = extract_pdf(path, data)
        except ExtractionError as exc:
            failed.append([corpus, doc_id, rel, digest, str(exc)])
        else:
            texts = extracted.pages
            docs.append([
                corpus, doc_id, rel, digest, len(data), len(texts), sum(len(t) for t in texts),
                sum(1 for t in texts if not t.strip()), extracted.extractor, "; ".join(extracted.warnings),
            ])
            pages.extend([corpus, doc_id, i + 1, t, len(t)] for i, t in enumerate(texts))
        if progress is not None:
            progress(path)
    return Ingested(
        documents=pd.DataFrame(docs, columns=DOCUMENT_COLUMNS),
        pages=pd.DataFrame(pages, columns=PAGE_COLUMNS),
        failed=pd.DataFrame(failed, columns=FAILED_COLUMNS),
    )
