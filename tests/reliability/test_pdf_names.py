"""File names: two `lease.pdf` in two subfolders are two documents; a name that is not UTF-8 is one failed
document, not a failed ingest; a deleted file's pages leave with it."""

from __future__ import annotations

import os

from ragpipe.corpus.ingest import ingest_folder
from ragpipe.warehouse.tables import connect, read_partition, store
from tests.reliability.pdfs import text_pdf


def _store(tmp_path, result) -> dict:
    conn = connect(tmp_path / "wh.duckdb")
    for table, frame in (("documents", result.documents), ("pages", result.pages), ("failed_documents", result.failed)):
        store(conn, tmp_path, table, frame, {"corpus": "mine"})
    return {t: read_partition(conn, t, {"corpus": "mine"}) for t in ("documents", "pages", "failed_documents")}


def test_same_stem_in_two_subfolders_and_a_non_utf8_name(tmp_path):
    pdfs = tmp_path / "pdfs"
    for sub, rent in (("2023", "$2,000"), ("2024", "$2,150")):
        (pdfs / sub).mkdir(parents=True)
        text_pdf(pdfs / sub / "lease.pdf", [f"The monthly rent is {rent}."])
    text_pdf(pdfs / "bill.pdf", ["The amount due is $26.99."])
    latin1 = os.fsencode(pdfs) + b"/r\xe9sum\xe9.pdf"  # a file name in Latin-1 bytes, as old systems write them
    with open(latin1, "wb") as f:
        f.write((pdfs / "bill.pdf").read_bytes())
    first = ingest_folder("mine", pdfs, workers=1)
    stored = _store(tmp_path, first)  # DuckDB takes every row: the whole ingest failed on the name before
    assert sorted(stored["documents"]["doc_id"]) == ["2023/lease", "2024/lease", "bill"]
    assert sorted(set(stored["pages"]["doc_id"])) == ["2023/lease", "2024/lease", "bill"]
    (failed,) = stored["failed_documents"].to_dict("records")
    assert "not UTF-8" in failed["reason"] and "\ufffd" in failed["file"]
    texts = dict(zip(stored["pages"]["doc_id"], stored["pages"]["text"]))
    assert "$2,000" in texts["2023/lease"] and "$2,150" in texts["2024/lease"]

    (pdfs / "2023" / "lease.pdf").unlink()
    second = ingest_folder("mine", pdfs, previous=first, workers=1)
    stored = _store(tmp_path, second)
    assert second.parsed == 0  # the rest is reused, not read again
    assert sorted(set(stored["pages"]["doc_id"])) == ["2024/lease", "bill"]  # the deleted file's pages are gone


def test_a_subfolder_file_stored_under_its_bare_name_is_read_again(tmp_path):
    """A warehouse ingested when ids were bare file names holds `lease` for `2024/lease.pdf`: its rows are
    not reused under the new id without pages, the file is read again."""
    pdfs = tmp_path / "pdfs"
    (pdfs / "2024").mkdir(parents=True)
    text_pdf(pdfs / "2024" / "lease.pdf", ["The monthly rent is $2,150."])
    first = ingest_folder("mine", pdfs, workers=1)
    old = first.documents.assign(doc_id="lease")  # as the older ingest stored it
    older = type(first)(old, first.pages.assign(doc_id="lease"), first.failed)
    again = ingest_folder("mine", pdfs, previous=older, workers=1)
    assert again.parsed == 1 and list(again.documents["doc_id"]) == ["2024/lease"]
    assert list(again.pages["doc_id"]) == ["2024/lease"] and "$2,150" in again.pages["text"].iloc[0]
