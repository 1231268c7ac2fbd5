"""Names are names, never paths, markup or TeX; the money bar blocks one system, not its neighbours."""

from __future__ import annotations

import json

import duckdb
import pytest
from dagster import DagsterInstance
from pydantic import ValidationError

from assets.runs.runner import failed_money_checks, run_corpus
from ragpipe.corpus.manifest import ManifestError, PipelineConfig, load_configs
from ragpipe.inputs.names import NameRefused, answer_set_name, config_name
from ragpipe.review.plots import verdicts_plot
from tests.commands import invoke
from tests.conftest import warehouse_resources

HOSTILE = ["$\\foo$", "[/]", "[/INST]", "a b", "../x", "x/../../../tmp/out", "", "-x", "a" * 101, "r\u00e9sum\u00e9"]


@pytest.mark.parametrize("name", ["extractive", "openai:meta-llama/Llama-3-8B", "import:run=3", "v1.2_b+c@d"])
def test_plain_names_pass(name):
    assert answer_set_name(name) == name


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_set_names_are_refused_in_one_line(name):
    with pytest.raises(NameRefused) as refused:
        answer_set_name(name)
    assert "\n" not in str(refused.value) and "starting with a letter or digit" in str(refused.value)


def test_labeled_is_kept_for_peoples_labels():
    with pytest.raises(NameRefused, match="kept for answers people labelled"):
        answer_set_name("labeled:gpt-4")
    assert answer_set_name("labeled:gpt-4", labelled=True) == "labeled:gpt-4"


@pytest.mark.parametrize("name", ["x/../../../tmp/out", "..", "a:b", "a b", ""])
def test_a_configuration_name_is_never_a_path(tmp_path, name):
    with pytest.raises(NameRefused):
        config_name(name)
    with pytest.raises(ValidationError):
        PipelineConfig(name=name)
    (tmp_path / "configs.yaml").write_text(json.dumps({"configs": {name: {"top_k": 3}}}))
    with pytest.raises(ManifestError, match=r"configs\.yaml: field configs\."):
        load_configs(tmp_path)


def test_a_set_name_matplotlib_would_read_as_tex_is_drawn_as_written():
    import pandas as pd

    pairs = pd.DataFrame(
        [{"corpus": "demo", "config": "default", "answer_set": "$\\foo$", "correct": 1, "partial": 0, "wrong": 1}]
    )
    assert "$\\foo$" in verdicts_plot(pairs)


def test_the_answer_set_option_refuses_a_hostile_name_before_running(tmp_path):
    for name in ("labeled:mine", "[/]", "$\\foo$"):
        result = invoke("run", "--corpus", "demo", "--engine", "extractive", "--answer-set", name, warehouse=tmp_path)
        assert result.exit_code == 2 and "answer set name" in result.output, result.output
        assert not (tmp_path / "ragpipe.duckdb").exists()


def test_markup_in_user_text_is_printed_as_written(demo_warehouse_once, tmp_path):
    """`[/INST]` in an answer, `[/x]` as a question id: tables and messages print them, rich never parses them."""
    result = invoke(
        "sql", "SELECT '[/INST]' AS answer, '[/]' AS set_name, '[bold]x' AS q", warehouse=demo_warehouse_once
    )
    assert result.exit_code == 0 and "[/INST]" in result.output and "[bold]x" in result.output, result.output
    questions, answers = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    questions.write_text(
        json.dumps({"id": "[/x]", "question": "What is the rent?", "kind": "answerable", "gold_answer": "$2,150"})
        + "\n"
    )
    answers.write_text(json.dumps({"question_id": "[/x]", "answer": "[/INST] The rent is $2,150."}) + "\n")
    result = invoke("grade", "--questions", str(questions), "--answers", str(answers))
    assert result.exit_code == 0 and "[/x]" in result.output, result.output
    result = invoke(
        "compare",
        "--corpus",
        "demo",
        "--config",
        "default",
        "--a",
        "extractive",
        "--b",
        "[/]",
        warehouse=demo_warehouse_once,
    )
    assert (
        result.exit_code != 0
        and "'[/]'" in result.output
        and result.exception is None
        or isinstance(result.exception, SystemExit)
    ), result.output


def _sets_side_by_side(warehouse, questions, name: str, wrong_money_on: str):
    """A second system beside the built-in engine: right on every question but one wrong money figure."""
    path = warehouse / f"{name}.jsonl"
    lines = []
    for q in questions:
        answer = "You owe $450,658 [1]" if q.id == wrong_money_on else (q.gold_answer or "I could not find this.")
        lines.append(json.dumps({"question_id": q.id, "answer": answer}))
    path.write_text("\n".join(lines) + "\n")
    override = {"engine": "import", "settings": {"path": str(path)}, "concurrency": 1, "answer_set": name}
    resources = warehouse_resources(warehouse, engine_override=json.dumps(override))
    return run_corpus("demo", ["default"], instance=DagsterInstance.ephemeral(), resources=resources)


def test_one_systems_wrong_money_blocks_that_system_alone(demo_warehouse, demo_questions):
    results = _sets_side_by_side(demo_warehouse, demo_questions, "careless", "tax-owed")
    assert all(r.success for r in results)  # the run goes on: the bar blocks a set, not a pair
    (failure,) = failed_money_checks(results)
    assert failure["blocked_sets"] == ["careless"] and failure["offending_questions"] == ["tax-owed"]
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        cards = dict(conn.execute("SELECT answer_set, blocked FROM scorecards ORDER BY answer_set").fetchall())
    assert cards == {"careless": True, "extractive": False}  # both stored; only the careless one blocked


def test_a_labeled_name_cannot_sneak_a_system_past_the_bar(demo_warehouse, demo_questions):
    """`labeled:` once exempted any set so named; a user's import under it is now refused, and nothing of it is stored."""
    results = _sets_side_by_side(demo_warehouse, demo_questions, "labeled:careless", "tax-owed")
    assert not all(r.success for r in results)
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        sets = conn.execute("SELECT DISTINCT answer_set FROM answers").fetchall()
    assert sets == [("extractive",)]
