"""Corpus adapters: the real third-party layouts (skipped without ../shared) and a
user's own folder laid out the same way (always run, made by the test)."""

from __future__ import annotations

import json

import pytest
from fpdf import FPDF

from ragpipe.corpus.adapters import DataMissing, data_available, pdf_folder, read_corpus_questions
from ragpipe.corpus.manifest import list_corpora, load_manifest
from tests.conftest import ROOT, needs_shared


def _manifest(name):
    return list_corpora(ROOT / "corpora")[name]


def _docs(manifest):
    return {p.stem for p in pdf_folder(manifest, ROOT / "warehouse").glob("*.pdf")}


def test_financebench_kinds_and_one_indexed_pages():
    needs_shared("financebench")
    manifest = _manifest("financebench")
    docs = _docs(manifest)
    loaded = read_corpus_questions(manifest, docs)
    kinds = [q.kind for q in loaded.questions]
    assert (len(docs), len(loaded.questions), loaded.problems) == (90, 150, [])
    assert (kinds.count("answerable"), kinds.count("negative"), kinds.count("ambiguous")) == (129, 4, 17)
    negatives = {q.id for q in loaded.questions if q.kind == "negative"}
    upstream = [
        json.loads(line) for line in (manifest.data_path / "financebench_open_source.jsonl").read_text().splitlines()
    ]
    assert negatives == {r["financebench_id"] for r in upstream if r["doc_name"] in ("AES_2022_10K", "PAYPAL_2022_10K")}
    by_id = {q.id: q for q in loaded.questions}
    row = next(r for r in upstream if r["financebench_id"] == "financebench_id_03029")
    q = by_id["financebench_id_03029"]
    assert q.golden_docs == ["3M_2018_10K"] and q.money_key == "$1577.00"
    assert q.golden_pages == {"3M_2018_10K": [row["evidence"][0]["evidence_page_num"] + 1]}
    assert q.question_type == "metrics-generated"
    for q in loaded.questions:
        assert q.kind != "answerable" or (q.golden_docs and set(q.golden_docs) <= docs)


def test_financebench_golden_page_is_the_evidence_page():
    """The zero-indexed upstream page, shifted once, is the page our extractor numbers the same."""
    needs_shared("financebench")
    from ragpipe.corpus.extract import extract_pdf

    manifest = _manifest("financebench")
    q = next(q for q in read_corpus_questions(manifest, _docs(manifest)).questions if q.id == "financebench_id_03029")
    (page,) = q.golden_pages["3M_2018_10K"]
    pages = extract_pdf(manifest.data_path / "pdfs" / "3M_2018_10K.pdf").pages
    assert "Purchases of property, plant and equipment" in pages[page - 1]
    assert "1,577" in pages[page - 1]


def test_aragog_kinds():
    needs_shared("aragog")
    manifest = _manifest("aragog")
    docs = _docs(manifest)
    loaded = read_corpus_questions(manifest, docs)
    kinds = [q.kind for q in loaded.questions]
    assert (len(docs), len(loaded.questions)) == (15, 107)
    assert (kinds.count("answerable"), kinds.count("negative")) == (98, 9)
    assert all("GLM" in q.text or "glm" in q.text.lower() for q in loaded.questions if q.kind == "negative")
    asked = {d for q in loaded.questions for d in q.golden_docs}
    assert {"llm_long_tail", "meaning_of_prompt", "red_teaming"} & asked == set()  # distractors


def _pdf(path, text):
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.multi_cell(0, 8, text)
    pdf.output(str(path))


def test_aragog_layout_in_a_users_own_folder(tmp_path, monkeypatch):
    """Any folder laid out like upstream works, via the manifest's environment variable."""
    (tmp_path / "pdfs").mkdir()
    _pdf(tmp_path / "pdfs" / "tiny.pdf", "TinyNet uses 3 layers and the Frobnicate optimizer.")
    (tmp_path / "benchmark.json").write_text(
        json.dumps(
            {
                "questions": ["How many layers does TinyNet use?", "What does HugeNet use?", "Unmapped?"],
                "ground_truths": ["3 layers", "Nothing", "x"],
            }
        )
    )
    (tmp_path / "qrels.json").write_text(
        json.dumps(
            {
                "0": {"golden_pdf": "tiny.pdf", "golden_pdf_in_corpus": True},
                "1": {"golden_pdf": "huge.pdf", "golden_pdf_in_corpus": False},
            }
        )
    )
    monkeypatch.setenv("RAGPIPE_ARAGOG_DIR", str(tmp_path))
    manifest = _manifest("aragog")
    assert manifest.data_path == tmp_path.resolve()
    loaded = read_corpus_questions(manifest, _docs(manifest))
    assert [(q.id, q.kind) for q in loaded.questions] == [("aragog-000", "answerable"), ("aragog-001", "negative")]
    (problem,) = loaded.problems
    assert problem.field == "2.golden_pdf" and "qrels.json" in problem.file


def test_financebench_bad_rows_are_problems_not_crashes(tmp_path, monkeypatch):
    (tmp_path / "pdfs").mkdir()
    _pdf(tmp_path / "pdfs" / "ACME_2022_10K.pdf", "Revenue was $12.5 million.")
    rows = [
        {
            "financebench_id": "a",
            "question": "Revenue of ACME in 2022?",
            "answer": "$12.5 million",
            "doc_name": "ACME_2022_10K",
            "evidence": [
                {
                    "evidence_text": "Revenue was $12.5 million.",
                    "evidence_doc_name": "ACME_2022_10K",
                    "evidence_page_num": 0,
                }
            ],
        },
        {"financebench_id": "b", "question": "Revenue of ZED?", "answer": "$1", "doc_name": "ZED_2022_10K"},
        {"financebench_id": "c", "question": "No answer field", "doc_name": "ACME_2022_10K"},
    ]
    text = "\n".join(json.dumps(r) for r in rows[:2]) + "\n{broken json\n" + json.dumps(rows[2]) + "\n"
    (tmp_path / "financebench_open_source.jsonl").write_text(text)
    (tmp_path / "financebench_document_information.jsonl").write_text("")
    monkeypatch.setenv("RAGPIPE_FINANCEBENCH_DIR", str(tmp_path))
    manifest = _manifest("financebench")
    loaded = read_corpus_questions(manifest, _docs(manifest))
    assert [(q.id, q.kind) for q in loaded.questions] == [("a", "answerable"), ("b", "negative")]
    assert loaded.questions[0].golden_pages == {"ACME_2022_10K": [1]}
    assert [(p.line, p.field) for p in loaded.problems] == [(3, "(line)"), (4, "answer")]


def test_missing_data_folder_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGPIPE_ARAGOG_DIR", str(tmp_path / "nowhere"))
    manifest = _manifest("aragog")
    assert not data_available(manifest)
    with pytest.raises(DataMissing, match="RAGPIPE_ARAGOG_DIR"):
        pdf_folder(manifest, tmp_path)


def test_unknown_adapter_is_refused(tmp_path):
    from ragpipe.corpus.manifest import ManifestError

    path = tmp_path / "x.yaml"
    path.write_text("name: x\nadapter: sharepoint\n")
    with pytest.raises(ManifestError, match="field adapter"):
        load_manifest(path)
