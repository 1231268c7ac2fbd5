"""A corpus's data folder that exists but lacks the files its adapter reads is one line before any run
starts, naming the folder, what it lacks and where to get it (an empty FinanceBench folder was a
224-line FileNotFoundError from inside the ingest graph; ARAGOG 75 lines, Open RAG Bench 78)."""

from __future__ import annotations

import pytest

from ragpipe.corpus.adapters import missing_data
from ragpipe.corpus.manifest import list_corpora
from tests.commands import env_for, ragpipe
from tests.conftest import ROOT

LAYOUTS = {  # corpus: (its folder variable, one file the adapter reads, what the line must name as lacking)
    "financebench": ("RAGPIPE_FINANCEBENCH_DIR", "financebench_open_source.jsonl", "pdfs/"),
    "aragog": ("RAGPIPE_ARAGOG_DIR", "benchmark.json", "qrels.json"),
    "openragbench": ("RAGPIPE_OPENRAGBENCH_DIR", "queries.json", "answers.json"),
}


@pytest.fixture()
def env(tmp_path):
    (tmp_path / "dh").mkdir()
    return env_for(tmp_path)


def _one_line(out) -> str:
    said = (out.stdout + out.stderr).strip()
    assert out.returncode == 1 and "Traceback" not in said and len(said.splitlines()) == 1, said[-3000:]
    return said


@pytest.mark.parametrize("corpus", sorted(LAYOUTS))
@pytest.mark.parametrize("command", ["run", "stats"])
def test_an_empty_data_folder_is_one_line_before_any_run(corpus, command, env, tmp_path):
    variable, _, lacking = LAYOUTS[corpus]
    empty = tmp_path / "empty"
    empty.mkdir()
    args = ("run", "--corpus", corpus, "--config", "default") if command == "run" else ("corpus", "stats", corpus)
    said = _one_line(ragpipe({**env, variable: str(empty)}, *args, timeout=600))
    assert f"{empty} lacks" in said and lacking in said and variable in said and "get it from" in said
    assert not (tmp_path / "wh" / "ragpipe.duckdb").exists()  # nothing started


def test_agreement_on_an_empty_financebench_folder_is_one_line(env, tmp_path):
    empty = tmp_path / "fb"
    (empty / "labeled-answers").mkdir(parents=True)
    (empty / "labeled-answers" / "x.jsonl").write_text("")
    said = _one_line(ragpipe(env, "agreement", "--data", str(empty), "--labels", str(empty / "labeled-answers")))
    assert f"{empty} lacks financebench_open_source.jsonl" in said


@pytest.mark.parametrize("corpus", sorted(LAYOUTS))
def test_a_half_copied_folder_names_only_what_it_lacks(corpus, tmp_path, monkeypatch):
    variable, present, lacking = LAYOUTS[corpus]
    folder = tmp_path / "half"
    (folder / "pdfs").mkdir(parents=True)
    (folder / present).write_text("{}")
    monkeypatch.setenv(variable, str(folder))
    said = missing_data(list_corpora(ROOT / "corpora")[corpus])
    assert said and lacking in said and present not in said and "pdfs/ (it holds no PDF)" in said


def test_a_folder_with_its_files_is_not_missing(tmp_path, monkeypatch):
    folder = tmp_path / "aragog"
    (folder / "pdfs").mkdir(parents=True)
    (folder / "pdfs" / "paper.pdf").write_bytes(b"%PDF-1.4\n")
    for name in ("benchmark.json", "qrels.json"):
        (folder / name).write_text("{}")
    monkeypatch.setenv("RAGPIPE_ARAGOG_DIR", str(folder))
    assert missing_data(list_corpora(ROOT / "corpora")["aragog"]) is None
