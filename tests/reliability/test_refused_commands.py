"""A refused corpus ends `ragpipe run` and `corpus stats --refresh` at once: file:line:field, exit 1, no traceback."""

from __future__ import annotations

import os

import pytest

from tests.commands import ragpipe
from tests.reliability.pdfs import corpora_with, text_pdf
from tests.reliability.test_bad_inputs import GOOD

QUESTIONS = (
    GOOD
    + """  - id: bad
    text: What is the deposit?
    kind: sometimes
"""
)


@pytest.mark.parametrize(
    "command", [["run", "--corpus", "mine", "--config", "default"], ["corpus", "stats", "mine", "--refresh"]]
)
def test_a_refused_corpus_is_one_message_and_exit_1(tmp_path, command):
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    text_pdf(pdfs / "lease.pdf", ["The monthly rent is $2,150."])
    corpora = corpora_with(tmp_path, "mine", pdfs, QUESTIONS)
    env = {
        **os.environ,
        "RAGPIPE_CORPORA": str(corpora),
        "RAGPIPE_WAREHOUSE": str(tmp_path / "wh"),
        "DAGSTER_HOME": str(tmp_path / "dh"),
    }
    (tmp_path / "dh").mkdir()
    out = ragpipe(env, *command, timeout=90)
    assert out.returncode == 1, (out.stdout[-1000:], out.stderr[-2000:])
    assert "questions.yaml:7: field kind" in out.stderr and "refused" in out.stderr
    assert "Traceback" not in out.stdout + out.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["run", "--corpus", "financebench", "--config", "default"],
        ["corpus", "stats", "financebench"],
        ["compare", "--corpus", "financebench", "--a", "x", "--b", "y"],
    ],
)
def test_absent_corpus_data_or_warehouse_is_one_line_saying_what_where_and_how(tmp_path, command):
    env = {
        **os.environ,
        "RAGPIPE_FINANCEBENCH_DIR": str(tmp_path / "no-such-folder"),
        "RAGPIPE_WAREHOUSE": str(tmp_path / "wh"),
        "DAGSTER_HOME": str(tmp_path / "dh"),
    }
    out = ragpipe(env, *command, timeout=90)
    said = (out.stdout + out.stderr).strip()
    assert out.returncode == 1 and "Traceback" not in said and len(said.splitlines()) == 1, said
    if command[0] == "compare":
        assert "no warehouse at" in said and "ragpipe run" in said
    else:
        assert str(tmp_path / "no-such-folder") in said and "RAGPIPE_FINANCEBENCH_DIR" in said
        assert "github.com/patronus-ai/financebench" in said
