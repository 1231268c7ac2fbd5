"""Chunks keep every line and their pages; BM25 finds the chunk that holds the answer."""

import pandas as pd

from ragpipe.retrieval.chunking import chunk_pages
from ragpipe.retrieval.index import ChunkIndex, index_fingerprint, reuse_index


def test_chunks_cover_every_line_with_page_spans(demo_ingested):
    pages = demo_ingested.pages
    for size, overlap in [(200, 40), (20, 5), (12, 0)]:
        chunks = chunk_pages(pages, "demo", "t", size, overlap)
        for doc_id, doc_pages in pages.groupby("doc_id"):
            lines = {
                ln.strip() for t in doc_pages["text"] for ln in t.splitlines() if ln.strip() and len(ln.split()) <= size
            }
            chunk_lines = {ln for t in chunks[chunks["doc_id"] == doc_id]["text"] for ln in t.splitlines()}
            assert lines <= chunk_lines, (doc_id, size)
        assert (chunks["words"] <= size).all()
        assert (chunks["page_start"] <= chunks["page_end"]).all()
        assert chunks["chunk_id"].is_unique


def test_overlap_shares_lines_between_neighbours():
    pages = pd.DataFrame({"doc_id": ["d"], "page": [1], "text": ["\n".join(f"line {i} alpha beta" for i in range(30))]})
    chunks = chunk_pages(pages, "c", "k", 20, 8)
    first, second = chunks["text"].iloc[0].splitlines(), chunks["text"].iloc[1].splitlines()
    assert first[-2:] == second[:2]


def test_page_span_crosses_pages():
    pages = pd.DataFrame({"doc_id": ["d", "d"], "page": [1, 2], "text": ["one two three", "four five six"]})
    chunks = chunk_pages(pages, "c", "k", 50, 0)
    assert (chunks.iloc[0]["page_start"], chunks.iloc[0]["page_end"]) == (1, 2)


def test_bm25_ranks_the_golden_document_first_and_survives_save_load(demo_ingested, tmp_path):
    chunks = chunk_pages(demo_ingested.pages, "demo", "t", 200, 40)
    index = ChunkIndex.build(chunks)
    index.save(tmp_path / "ix")
    loaded = ChunkIndex.load(tmp_path / "ix")
    query = "What is the ending balance on the Northgate Home Security statement?"
    assert [h.chunk_id for h in loaded.search(query, 3)] == [h.chunk_id for h in index.search(query, 3)]
    assert loaded.search(query, 1)[0].chunk_id.startswith("home-security-bill#")
    assert loaded.search("zebra quantum", 5) == []
    assert loaded.idf("zebra") > loaded.idf("riley")


def test_an_index_is_reused_only_from_the_same_chunks(demo_ingested, tmp_path):
    index = ChunkIndex.build(chunk_pages(demo_ingested.pages, "demo", "t", 200, 40))
    index.save(tmp_path / "default", "abc")
    ChunkIndex.build(chunk_pages(demo_ingested.pages, "demo", "t", 80, 20)).save(tmp_path / "small", "xyz")
    folders = [tmp_path / "default", tmp_path / "small"]
    assert reuse_index(folders, tmp_path / "other", "nope") is None and not (tmp_path / "other").exists()
    assert reuse_index(folders, tmp_path / "wide", "abc") == tmp_path / "default"
    assert index_fingerprint(tmp_path / "wide") == "abc"
    query = "What is the ending balance on the Northgate Home Security statement?"
    assert ChunkIndex.load(tmp_path / "wide").search(query, 5) == index.search(query, 5)


def test_bm25_ranks_like_the_reference_implementation(demo_ingested, demo_questions):
    """Same tokens, same k1/b, same (Lucene) idf: bm25s and rank-bm25 give the same top 10 for every demo question."""
    from bench.reference_bm25 import LuceneOkapi, top_k
    from ragpipe.text.tokenize import tokenize

    chunks = chunk_pages(demo_ingested.pages, "demo", "t", 80, 20)
    index = ChunkIndex.build(chunks)
    reference = LuceneOkapi([tokenize(t) or ["\u2205"] for t in chunks["text"]], k1=1.5, b=0.75)
    compared = 0
    for q in demo_questions:
        ours = [h.chunk_id for h in index.search(q.text, 10)]
        ref = [
            chunks["chunk_id"].iloc[i]
            for i in top_k(reference.get_scores([t for t in tokenize(q.text) if t in index._df]))
        ]
        assert ours == ref, q.id
        compared += bool(ours)
    assert compared >= 25


def test_a_corpus_with_no_chunk_gets_an_index_that_finds_nothing(tmp_path):
    """Every document failed to read: the index is built, saved and loaded, and finds nothing, so the run
    goes on to answer (and decline) instead of failing in bm25s ("max() arg is an empty sequence")."""
    empty = pd.DataFrame({"chunk_id": pd.Series([], dtype=str), "text": pd.Series([], dtype=str)})
    index = ChunkIndex.build(empty)
    assert index.search("What is the monthly rent?", 5) == [] and index.vocabulary_size == 0
    index.save(tmp_path / "idx", "fp")
    loaded = ChunkIndex.load(tmp_path / "idx")
    assert loaded.search("monthly rent", 5) == [] and loaded.n_docs == 0 and loaded.idf("rent") > 0


# in a process of its own: the test worker may have imported numba or scipy.sparse already
_UNUSED_BACKENDS = """
import sys, threading
from pathlib import Path
import pandas as pd
from ragpipe.retrieval.index import ChunkIndex, _Unused
chunks = pd.DataFrame({"chunk_id": ["a", "b"], "text": ["the pet deposit is 300", "the rent is due monthly"]})
index = ChunkIndex.build(chunks)
index.save(Path(sys.argv[1]))
hits = ChunkIndex.load(Path(sys.argv[1])).search("pet deposit", 2)
print(hits[0].chunk_id, "numba" in sys.modules, "scipy.sparse" in sys.modules)
refusal = _Unused()  # refused to this thread, while another imports it
sys.meta_path.insert(0, refusal)
elsewhere = []
worker = threading.Thread(target=lambda: elsewhere.append(__import__("numba").__name__))
worker.start(); worker.join()
try:
    import scipy.sparse
    here = "imported"
except ModuleNotFoundError:
    here = "refused"
sys.meta_path.remove(refusal)
import scipy.sparse  # and once the refusal is gone, here too
print(elsewhere[0], here)
"""


def test_an_index_is_built_and_loaded_without_the_backends_ragpipe_never_selects(tmp_path):
    """bm25s imports numba and scipy.sparse whenever they are installed, for backends ragpipe never picks:
    they are refused to the importing thread for bm25s's import only, and stay importable everywhere else."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    done = subprocess.run(
        [sys.executable, "-c", _UNUSED_BACKENDS, str(tmp_path / "index")],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first == "a False False"  # found, and neither backend imported
    assert second == "numba refused"  # another thread imports numba meanwhile; this one is refused
