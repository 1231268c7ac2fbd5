"""The demo corpus is real PDFs, generated deterministically, with the promised shape."""

import hashlib

from ragpipe.corpus.demo_pdfs import load_documents, write_demo_corpus
from ragpipe.text.figures import parse_figure
from tests.conftest import DEMO_SOURCE


def _digests(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob("*.pdf"))}


def test_generation_is_byte_identical(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    write_demo_corpus(DEMO_SOURCE, a)
    write_demo_corpus(DEMO_SOURCE, b)
    assert _digests(a) == _digests(b)
    assert len(_digests(a)) == len(load_documents(DEMO_SOURCE))


def test_rewrite_leaves_unchanged_files_alone_and_drops_stale_ones(tmp_path):
    write_demo_corpus(DEMO_SOURCE, tmp_path)
    first = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("*.pdf")}
    (tmp_path / "stale.pdf").write_bytes(b"%PDF-1.4 old")
    write_demo_corpus(DEMO_SOURCE, tmp_path)
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("*.pdf")} == first


def test_corpus_shape(demo_ingested, demo_questions):
    docs = load_documents(DEMO_SOURCE)
    assert sum(not d.distractor and not d.broken for d in docs) >= 8
    assert sum(d.distractor for d in docs) >= 2
    assert len(demo_questions) >= 24
    kinds = [q.kind for q in demo_questions]
    assert kinds.count("negative") >= 4 and kinds.count("ambiguous") >= 2
    keys = [parse_figure(q.money_key) for q in demo_questions if q.money_key]
    assert any(k.decimals == 2 for k in keys) and any(k.decimals == 0 for k in keys)
    assert any(k.value == 44322 for k in keys)
    assert any(q.must_contain for q in demo_questions)
    assert any(q.must_contain_any for q in demo_questions)
    assert any(q.must_not_contain for q in demo_questions)


def test_pdfs_have_a_text_layer_with_the_authored_figures(demo_ingested):
    pages = demo_ingested.pages
    tax = " ".join(pages[pages["doc_id"] == "tax-return-2024"]["text"])
    assert "Amount you owe: $44,322" in tax
    bill = " ".join(pages[pages["doc_id"] == "home-security-bill"]["text"])
    assert "Ending balance: $42.99" in bill and "Amount due: $26.99" in bill


def test_golden_pages_hold_the_money_key(demo_ingested, demo_questions):
    """Every authored money key is printed on the golden page it names."""
    from ragpipe.text.figures import find_figures

    pages = demo_ingested.pages
    for q in demo_questions:
        if not q.money_key or q.kind != "answerable":
            continue
        key = parse_figure(q.money_key)
        texts = [t for d, p, t in zip(pages["doc_id"], pages["page"], pages["text"]) if p in q.golden_pages.get(d, [])]
        assert any(key.matches(f) for t in texts for f in find_figures(t)), q.id
