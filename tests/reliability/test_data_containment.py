"""Data files cannot reach outside their corpus's data folder, and odd ones cost a line, not a corpus: a link
to a PDF elsewhere is refused naming it (it once put a private PDF's text into chunks and answers), a
file named `.pdf` no longer wedges the Open RAG Bench folder, and a deeply nested queries.json is a
problem naming the file, not a RecursionError."""

from __future__ import annotations

import os
import shutil

import pytest

from ragpipe.corpus.adapters import pdf_folder, read_corpus_questions
from ragpipe.corpus.adapters.contained import DataOutside
from ragpipe.corpus.manifest import Sample, list_corpora
from tests.commands import env_for, ragpipe
from tests.conftest import ROOT
from tests.openragbench_layout import write_layout
from tests.reliability.pdfs import text_pdf as write_pdf


@pytest.fixture()
def layout(tmp_path):
    return write_layout(tmp_path / "orb", papers=12)


def _manifest(monkeypatch, variable, folder, corpus, **sample):
    monkeypatch.setenv(variable, str(folder))
    manifest = list_corpora(ROOT / "corpora")[corpus]
    return manifest.model_copy(update={"sample": Sample(**sample)}) if sample else manifest


def _private(tmp_path):
    secret = tmp_path / "elsewhere" / "private.pdf"
    secret.parent.mkdir()
    write_pdf(secret, ["salary of the chief executive: 912,345"])
    return secret


def test_a_paper_linked_from_outside_the_data_folder_is_refused_naming_it(layout, tmp_path, monkeypatch):
    victim = sorted((layout / "pdfs").iterdir())[0]
    victim.unlink()
    os.symlink(_private(tmp_path), victim)
    manifest = _manifest(monkeypatch, "RAGPIPE_OPENRAGBENCH_DIR", layout, "openragbench", golden=12, distractors=0,
                         negatives=0, per_paper=1, seed=1)  # fmt: skip
    with pytest.raises(DataOutside, match=f"{victim}: resolves to .*private.pdf, outside the corpus's data folder"):
        pdf_folder(manifest, tmp_path / "wh")


def test_queries_linked_from_outside_are_refused(layout, tmp_path, monkeypatch):
    outside = tmp_path / "queries-elsewhere.json"
    shutil.move(layout / "queries.json", outside)
    os.symlink(outside, layout / "queries.json")
    manifest = _manifest(monkeypatch, "RAGPIPE_OPENRAGBENCH_DIR", layout, "openragbench")
    with pytest.raises(DataOutside, match="corpus .openragbench.: .*queries.json: resolves to"):
        read_corpus_questions(manifest, set())


def test_a_link_inside_the_data_folder_is_fine(layout, tmp_path, monkeypatch):
    first, second = sorted((layout / "pdfs").iterdir())[:2]
    (layout / "kept").mkdir()
    shutil.move(first, layout / "kept" / first.name)
    os.symlink(layout / "kept" / first.name, first)
    manifest = _manifest(monkeypatch, "RAGPIPE_OPENRAGBENCH_DIR", layout, "openragbench", golden=12, distractors=0,
                         negatives=0, per_paper=1, seed=1)  # fmt: skip
    assert first.name in {p.name for p in pdf_folder(manifest, tmp_path / "wh").iterdir()}


def test_a_financebench_filing_linked_from_outside_is_refused_by_the_cli(tmp_path):
    data = tmp_path / "fb"
    (data / "pdfs").mkdir(parents=True)
    (data / "financebench_open_source.jsonl").write_text("")
    (data / "financebench_document_information.jsonl").write_text("")
    write_pdf(data / "pdfs" / "ACME_2022_10K.pdf", ["Revenue was $1,234 million."])
    os.symlink(_private(tmp_path), data / "pdfs" / "BETA_2022_10K.pdf")
    (tmp_path / "dh").mkdir()
    out = ragpipe(env_for(tmp_path, RAGPIPE_FINANCEBENCH_DIR=str(data)), "run", "--corpus", "financebench",
                  "--config", "default", timeout=600)  # fmt: skip
    said = (out.stdout + out.stderr).strip()
    assert out.returncode == 1 and "Traceback" not in said, said[-3000:]
    assert "BETA_2022_10K.pdf: resolves to" in said and "private.pdf" in said and len(said.splitlines()) == 1


def test_a_file_named_only_by_its_extension_does_not_wedge_the_corpus(layout, tmp_path, monkeypatch):
    shutil.copy(sorted((layout / "pdfs").iterdir())[0], layout / "pdfs" / ".pdf")
    manifest = _manifest(monkeypatch, "RAGPIPE_OPENRAGBENCH_DIR", layout, "openragbench", golden=12, distractors=0,
                         negatives=0, per_paper=1, seed=1)  # fmt: skip
    first = sorted(p.name for p in pdf_folder(manifest, tmp_path / "wh").iterdir())
    again = sorted(p.name for p in pdf_folder(manifest, tmp_path / "wh").iterdir())  # FileExistsError, once
    assert first == again and ".pdf" not in first and ".pdf.pdf" not in first and len(first) == 10


def test_deeply_nested_queries_are_a_problem_naming_the_file(layout, monkeypatch):
    (layout / "queries.json").write_text("[" * 100_000 + "]" * 100_000)
    manifest = _manifest(monkeypatch, "RAGPIPE_OPENRAGBENCH_DIR", layout, "openragbench")
    problems = read_corpus_questions(manifest, set()).problems
    assert any(str(layout / "queries.json") in str(p) and "nested too deeply" in str(p) for p in problems)
