"""Ingest: every readable PDF becomes pages; a bad one becomes a failed row, in words."""

import pytest

from ragpipe.corpus.extract import ExtractionError, extract_pdf
from ragpipe.corpus.ingest import assemble, extract_files, ingest_folder, plan_ingest, shard_files
from tests.reliability.pdfs import text_pdf as _pdf


def test_demo_ingest_records_the_broken_file_and_keeps_the_rest(demo_ingested):
    assert list(demo_ingested.failed["doc_id"]) == ["warranty-card"]
    assert "not a readable PDF" in demo_ingested.failed.iloc[0]["reason"]
    assert len(demo_ingested.documents) == 10
    assert (demo_ingested.documents["extractor"] == "pypdfium2").all()
    lease = demo_ingested.pages[demo_ingested.pages["doc_id"] == "apartment-lease"]
    assert list(lease["page"]) == [1, 2]  # 1-indexed
    assert "late fee of $75" in lease.iloc[1]["text"]


def test_bad_files_each_fail_with_a_reason_and_good_files_still_ingest(tmp_path):
    _pdf(tmp_path / "good.pdf", ["Rent is $2,150 a month.", "Second page."])
    (tmp_path / "empty.pdf").write_bytes(b"")
    (tmp_path / "notes.pdf").write_text("just some text, not a PDF")
    good = (tmp_path / "good.pdf").read_bytes()
    (tmp_path / "truncated.pdf").write_bytes(good[: len(good) // 3])
    _pdf(tmp_path / "locked.pdf", ["secret"], password="secret")
    result = ingest_folder("t", tmp_path)
    reasons = dict(zip(result.failed["doc_id"], result.failed["reason"]))
    assert reasons["empty"] == "empty file (0 bytes)"
    assert reasons["notes"].startswith("not a PDF")
    assert reasons["locked"].startswith("encrypted")
    assert "good" in set(result.documents["doc_id"])
    good_pages = result.pages[result.pages["doc_id"] == "good"]
    assert list(good_pages["page"]) == [1, 2] and "$2,150" in good_pages.iloc[0]["text"]
    # a truncated file is either recovered (pdfium repairs some) or failed with a reason: never lost
    assert "truncated" in set(result.documents["doc_id"]) | set(reasons)


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        ingest_folder("t", tmp_path / "nope")


def test_extract_error_is_an_exception_with_words(tmp_path):
    path = tmp_path / "x.pdf"
    path.write_bytes(b"%PDF-1.4\ngarbage")
    with pytest.raises(ExtractionError, match="PDF"):
        extract_pdf(path)


def test_shared_pdfs_extract_with_pdfium_when_present():
    from tests.conftest import needs_shared

    folder = needs_shared("financebench/pdfs")
    sample = sorted(folder.glob("*.pdf"))[0]
    result = extract_pdf(sample)
    assert result.extractor == "pypdfium2" and len(result.pages) > 10
    assert sum(len(p) for p in result.pages) > 10_000


def test_ingest_is_incremental_by_content_hash(tmp_path):
    _pdf(tmp_path / "a.pdf", ["Rent is $2,150 a month."])
    _pdf(tmp_path / "b.pdf", ["Deposit is $4,300."])
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\ngarbage")
    first = ingest_folder("t", tmp_path)
    assert (first.parsed, first.reused) == (3, 0)
    again = ingest_folder("t", tmp_path, previous=first)
    assert (again.parsed, again.reused) == (0, 3)
    for name in ("documents", "pages", "failed"):
        assert getattr(again, name).reset_index(drop=True).equals(getattr(first, name).reset_index(drop=True)), name
    _pdf(tmp_path / "b.pdf", ["Deposit is $5,000 now."])
    changed = ingest_folder("t", tmp_path, previous=again)
    assert (changed.parsed, changed.reused) == (1, 2)
    assert "$5,000" in changed.pages[changed.pages["doc_id"] == "b"]["text"].iloc[0]


def test_worker_processes_ingest_exactly_what_one_process_does(tmp_path, monkeypatch):
    import ragpipe.corpus.extract_pool

    for n in range(4):
        _pdf(tmp_path / f"doc{n}.pdf", [f"Page one of document {n}: total ${n},250.00.", f"Page two, line {n}."])
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\ngarbage")
    monkeypatch.setattr(ragpipe.corpus.extract_pool, "PARALLEL_MIN_BYTES", 0)  # small files: parallel anyway
    one = ingest_folder("t", tmp_path, workers=1)
    two = ingest_folder("t", tmp_path, workers=2)
    assert (two.parsed, len(two.documents), len(two.failed)) == (5, 4, 1)
    for name in ("documents", "pages", "failed"):
        assert getattr(two, name).equals(getattr(one, name)), name


def test_rows_an_older_extractor_wrote_are_read_again(tmp_path):
    _pdf(tmp_path / "a.pdf", ["Rent is $2,150 a month."])
    first = ingest_folder("t", tmp_path)
    older = first.documents.assign(extractor_version="1")  # as an earlier ragpipe stored it
    again = ingest_folder("t", tmp_path, previous=type(first)(older, first.pages, first.failed))
    assert (again.parsed, again.reused) == (1, 0)
    legacy = first.documents.drop(columns=["extractor_version"])  # a warehouse from before the column existed
    assert ingest_folder("t", tmp_path, previous=type(first)(legacy, first.pages, first.failed)).parsed == 1


def test_an_ingest_cut_into_shards_stores_what_one_process_stores(tmp_path):
    """Plan where the warehouse is, parse the shards anywhere (here one after another), assemble:
    the same rows, in the same order, as one process; unchanged files are reused, not dealt out."""
    for n in range(5):
        _pdf(tmp_path / f"doc{n}.pdf", [f"Document {n} says ${n},100.00." * (1 + 40 * (n % 3))])
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\ngarbage")
    whole = ingest_folder("t", tmp_path, workers=1)
    plan = plan_ingest("t", tmp_path)
    parts = shard_files(plan, 3)
    assert sorted(f for part in parts for f in part) == sorted(plan.to_parse)  # every file once
    assert all(part == sorted(part, key=plan.to_parse.index) for part in parts) and all(parts)
    sizes = [sum(plan.sizes[rel] for rel, _ in part) for part in parts]
    assert max(sizes) <= sum(sizes) / 3 + max(plan.sizes.values())  # dealt by size: no shard holds them all
    # the shards' outputs arrive in any order
    sharded = assemble("t", plan, [extract_files("t", tmp_path, part, workers=1) for part in parts][::-1])
    for name in ("documents", "pages", "failed"):
        assert getattr(sharded, name).equals(getattr(whole, name)), name
    assert (sharded.parsed, sharded.reused) == (6, 0)

    _pdf(tmp_path / "doc1.pdf", ["Document 1 was replaced."])
    again = plan_ingest("t", tmp_path, previous=whole)
    assert again.to_parse == [("doc1.pdf", dict(again.files)["doc1.pdf"])]  # only the changed file is parsed again
    assert [len(p) for p in shard_files(again, 3)] == [1, 0, 0]
    updated = assemble("t", again, [extract_files("t", tmp_path, again.to_parse, workers=1)], previous=whole)
    assert (updated.parsed, updated.reused) == (1, 5)
    assert "replaced" in updated.pages.set_index("doc_id").loc["doc1", "text"]
    assert updated.documents.drop(index=1).equals(whole.documents.drop(index=1))  # doc1 is row 1 (broken.pdf failed)


def test_a_file_neither_parsed_nor_stored_is_an_error_not_a_lost_row(tmp_path):
    _pdf(tmp_path / "a.pdf", ["Rent is $2,150 a month."])
    plan = plan_ingest("t", tmp_path)
    with pytest.raises(RuntimeError, match="a.pdf was neither parsed nor held"):
        assemble("t", plan, [])


def test_extract_workers_come_from_the_environment(monkeypatch):
    from ragpipe.corpus.extract_pool import extract_workers

    monkeypatch.setenv("RAGPIPE_EXTRACT_WORKERS", "1")
    assert extract_workers() == 1
    monkeypatch.setenv("RAGPIPE_EXTRACT_WORKERS", "two")
    with pytest.raises(ValueError, match="RAGPIPE_EXTRACT_WORKERS='two'"):
        extract_workers()
