"""Bad PDFs: each is a failed document with a reason in words (or a warning), and every other file ingests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ragpipe.corpus.ingest import ingest_folder
from tests.conftest import ROOT
from tests.reliability.pdfs import bad_pdf_zoo, corpora_with

QUESTIONS = """questions:
  - id: rent
    text: What is the monthly rent?
    kind: answerable
    gold_answer: $2,150 a month.
    golden_docs: [lease]
    money_key: "$2,150"
  - id: pet-fee
    text: What is the pet fee?
    kind: negative
"""


def test_every_kind_of_bad_pdf_is_explained_and_the_rest_ingest(tmp_path):
    result = ingest_folder("t", bad_pdf_zoo(tmp_path / "pdfs"))

    reasons = dict(zip(result.failed["doc_id"], result.failed["reason"]))
    assert reasons["zero"] == "empty file (0 bytes)"
    assert reasons["notes"].startswith("not a PDF: the file does not start with a %PDF header")
    assert reasons["locked"] == "encrypted: the PDF needs a password to open"
    assert reasons["truncated"].startswith("not a readable PDF (damaged or truncated file)")
    assert reasons["blank"] == "no text on any of its 3,000 page(s): a blank document"
    warnings = dict(zip(result.documents["doc_id"], result.documents["warnings"]))
    assert warnings["scan"] == "no text layer on page(s) 1: image-only (scanned?), needs OCR to be searchable"
    assert warnings["damaged"] == "page(s) 2: content stream damaged, no text could be extracted"
    assert warnings["lease"] == ""
    pages = result.pages.set_index(["doc_id", "page"])["text"]
    assert "$2,150" in pages[("lease", 1)] and "$75" in pages[("damaged", 3)] and pages[("damaged", 2)] == ""
    assert set(result.documents["doc_id"]) == {"lease", "scan", "damaged"}
    assert len(result.documents) + len(result.failed) == 8  # nothing lost, nothing counted twice


@pytest.mark.end_to_end
def test_a_corpus_of_bad_pdfs_runs_end_to_end_and_the_scorecard_counts_them(tmp_path):
    corpora = corpora_with(tmp_path, "zoo", bad_pdf_zoo(tmp_path / "pdfs"), QUESTIONS)
    env = {
        **os.environ,
        "RAGPIPE_CORPORA": str(corpora),
        "RAGPIPE_WAREHOUSE": str(tmp_path / "wh"),
        "DAGSTER_HOME": str(tmp_path / "dh"),
    }
    ragpipe = str(Path(sys.executable).parent / "ragpipe")
    run = subprocess.run(
        [ragpipe, "run", "--corpus", "zoo", "--config", "default"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = subprocess.run(
        [ragpipe, "scorecard", "--corpus", "zoo", "--json"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    (card,) = json.loads(out.stdout)
    assert (card["documents"], card["documents_failed"]) == (8, 5)
    assert card["answerable_correct"] == 1 and card["negatives_declined"] == 1  # the good lease still answers


def test_a_50000_page_pdf_is_refused_at_once_and_the_rest_ingest(tmp_path):
    """Its pages are counted from the page tree, before any is read: a clear reason, in bounded time."""
    from pypdf import PdfWriter

    from tests.reliability.pdfs import text_pdf

    writer = PdfWriter()
    for _ in range(50_000):
        writer.add_blank_page(612, 792)
    with open(tmp_path / "huge.pdf", "wb") as f:
        writer.write(f)
    text_pdf(tmp_path / "lease.pdf", ["The monthly rent is $2,150."])
    result = ingest_folder("c", tmp_path)
    assert list(result.documents["doc_id"]) == ["lease"]
    [reason] = result.failed["reason"]
    assert reason == "50,000 pages: more than the 10,000 a document may have (RAGPIPE_MAX_PAGES)"


def test_a_decompression_bomb_is_a_failed_document_in_bounded_memory_and_the_rest_ingest(tmp_path, monkeypatch):
    """Half a megabyte inflating to 512 MB (pdfium holds about 1 GB for it) under a 384 MB cap: the
    worker reading it dies, its file gets the reason, a fresh worker reads the files after it."""
    from tests.reliability.pdfs import bomb_pdf, text_pdf

    monkeypatch.setenv("RAGPIPE_EXTRACT_MEMORY_MB", "384")
    bomb_pdf(tmp_path / "b-bomb.pdf", inflated_mb=512)
    text_pdf(tmp_path / "a-lease.pdf", ["The monthly rent is $2,150."])
    text_pdf(tmp_path / "c-bill.pdf", ["Amount due: $26.99."])
    assert (tmp_path / "b-bomb.pdf").stat().st_size < 1 << 20
    result = ingest_folder("c", tmp_path, workers=1)
    assert list(result.documents["doc_id"]) == ["a-lease", "c-bill"]
    [reason] = result.failed["reason"]
    assert reason.startswith("extraction stopped") and "384 MB a document may use (RAGPIPE_EXTRACT_MEMORY_MB)" in reason
    assert "decompression bomb" in reason
    assert "$26.99" in result.pages.set_index("doc_id").loc["c-bill", "text"]


def test_a_document_that_reads_too_long_is_stopped_with_its_reason(tmp_path, monkeypatch):
    """The time limit holds the same way: the bomb reads for about a second here, the lease in
    milliseconds; at 0.3 s the bomb's worker is killed, its file fails, the lease after it ingests."""
    from tests.reliability.pdfs import bomb_pdf, text_pdf

    monkeypatch.setenv("RAGPIPE_EXTRACT_TIMEOUT", "0.3")
    bomb_pdf(tmp_path / "a-slow.pdf", inflated_mb=512)
    text_pdf(tmp_path / "b-lease.pdf", ["The monthly rent is $2,150."])
    result = ingest_folder("c", tmp_path, workers=1)
    assert list(result.documents["doc_id"]) == ["b-lease"]
    assert list(result.failed["reason"]) == [
        "extraction took longer than the 0.3 s a document may take (RAGPIPE_EXTRACT_TIMEOUT)"
    ]
