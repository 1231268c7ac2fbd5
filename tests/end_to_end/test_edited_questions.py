"""Questions and needles are inputs of the grade (issue: edited questions were graded as they were). An edit
to a corpus's question file is said where staleness is said, and `ragpipe regrade` reads the questions again
and grades on them; a pair graded on questions read again since is said as such."""

from __future__ import annotations

import shutil

import duckdb
import pytest

from tests.commands import env_for, ragpipe
from tests.conftest import ROOT


def _edited_corpora(tmp_path):
    corpora = tmp_path / "corpora"
    shutil.copytree(ROOT / "corpora", corpora)
    questions = corpora / "demo" / "questions.yaml"
    text = questions.read_text()
    assert "gold_answer: The amount owed is $44,322.\n    golden_docs: [tax-return-2024]" in text
    text = text.replace("gold_answer: The amount owed is $44,322.", "gold_answer: The amount owed is $40,100.")
    questions.write_text(text.replace('money_key: "$44,322"', 'money_key: "$40,100"', 1))
    return corpora


def _tax_owed(warehouse) -> tuple[str, list[tuple]]:
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        (gold,) = conn.execute("SELECT gold_answer FROM questions WHERE question_id = 'tax-owed'").fetchone()
        verdicts = conn.execute(
            "SELECT config, answer_set, verdict, rule FROM grades WHERE question_id = 'tax-owed' ORDER BY ALL"
        ).fetchall()
    return gold, verdicts


@pytest.mark.end_to_end
def test_an_edited_gold_and_key_are_said_then_read_again_and_graded_on_by_regrade(demo_warehouse, tmp_path):
    env = env_for(tmp_path, RAGPIPE_CORPORA=str(_edited_corpora(tmp_path)), RAGPIPE_WAREHOUSE=str(demo_warehouse))
    gold, before = _tax_owed(demo_warehouse)
    assert gold == "The amount owed is $44,322." and any(v == "correct" for _, _, v, _ in before)
    card = ragpipe(env, "scorecard")
    assert card.returncode == 0, card.stdout + card.stderr
    assert "demo: its questions changed since they were read (demo/questions.yaml)" in " ".join(card.stderr.split())
    done = ragpipe(env, "regrade")
    said = " ".join(done.stdout.split())
    assert "demo: its questions changed since they were read (demo/questions.yaml): reading them again" in said, said
    gold, after = _tax_owed(demo_warehouse)
    assert gold == "The amount owed is $40,100."
    # the systems that said $44,322, right before, now state a wrong amount of money: graded on the new key
    flipped = [rule for (_, _, v, _), (_, _, w, rule) in zip(before, after) if v == "correct" and w == "wrong"]
    assert flipped and all(rule.startswith("money.") for rule in flipped), after
    again = ragpipe(env, "scorecard")
    assert "its questions changed" not in again.stderr and "other questions" not in again.stderr, again.stderr
    delta = ragpipe(env, "delta", "--corpus", "demo", "--config", "default")
    assert "tax-owed" in delta.stdout, delta.stdout


@pytest.mark.end_to_end
def test_a_pair_graded_on_questions_read_again_since_is_said(demo_warehouse, tmp_path):
    """As a run of another configuration leaves it: the corpus's questions read again (here written as a run
    would), this pair's grades made on the old gold."""
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb")) as conn:
        conn.execute("UPDATE questions SET gold_answer = 'The amount owed is $40,100.' WHERE question_id = 'tax-owed'")
        pairs = conn.execute("SELECT DISTINCT corpus, config FROM grades WHERE corpus = 'demo' ORDER BY 2").fetchall()
        (per_pair,) = conn.execute(
            "SELECT count(*) // count(DISTINCT config) FROM grades WHERE question_id = 'tax-owed'"
        ).fetchone()
    env = env_for(tmp_path, RAGPIPE_WAREHOUSE=str(demo_warehouse))
    card = ragpipe(env, "scorecard")
    said = " ".join(card.stderr.split())
    for corpus, config in pairs:
        assert f"{corpus}/{config}: {per_pair} grade(s) were made on other questions or needles" in said, said
