"""Your own files everywhere: a question file becomes a corpus (`ragpipe corpus new`), two systems' answer
files (JSON Lines and CSV) its answer sets, and compare, gate, leaderboard, review and scorecard work on
them as on any corpus, the retrieval columns saying "no documents"; each answer is graded as `ragpipe
grade` grades it from the same files."""

from __future__ import annotations

import json
import shutil

import duckdb
import pytest

from tests.commands import env_for, ragpipe
from tests.conftest import ROOT

QUESTIONS = """id,text,gold_answer,money_key
q1,What is the capital of France?,Paris,
q2,How much is the amount due on the bill?,The amount due is $48.75.,$48.75
q3,Who wrote Hamlet?,William Shakespeare,
q4,Which river runs through Cairo?,The Nile,
"""
SYSTEM_A = [
    {"question_id": "q1", "answer": "Paris."},
    {"question_id": "q2", "answer": "The amount due is $48.75."},
    {"question_id": "q3", "answer": "It was written by William Shakespeare."},
    {"question_id": "q4", "answer": "The Nile runs through Cairo."},
]
SYSTEM_B = """question_id,answer,latency_ms,citations
q1,Lyon.,12,
q2,"The amount due is $61.20; last month's was $48.75.",15,bill;statement
q3,William Shakespeare wrote it.,9,
q4,The Nile.,11,
"""


@pytest.fixture()
def files(tmp_path):
    shutil.copytree(ROOT / "corpora", tmp_path / "corpora")
    (tmp_path / "questions.csv").write_text(QUESTIONS)
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in SYSTEM_A))
    (tmp_path / "b.csv").write_text(SYSTEM_B)
    (tmp_path / "dagster_home").mkdir()
    env = env_for(tmp_path, RAGPIPE_CORPORA=str(tmp_path / "corpora"), RAGPIPE_WAREHOUSE=str(tmp_path / "wh"))
    env["DAGSTER_HOME"] = str(tmp_path / "dagster_home")
    return tmp_path, env


@pytest.mark.end_to_end
def test_two_systems_files_are_compared_gated_and_reviewed_as_a_corpus(files):
    folder, env = files
    made = ragpipe(env, "corpus", "new", "mine", "--questions", str(folder / "questions.csv"))
    assert made.returncode == 0 and "corpus mine: 4 question(s)" in made.stdout, made.stdout + made.stderr
    for system, path in (("sysA", "a.jsonl"), ("sysB", "b.csv")):
        done = ragpipe(env, "run", "--corpus", "mine", "--config", "default", "--engine", "import",
                       "--answers", str(folder / path), "--answer-set", system)  # fmt: skip
        assert done.returncode in (0, 1), done.stdout + done.stderr  # 1: sysB states a wrong amount, blocked
    with duckdb.connect(str(folder / "wh" / "ragpipe.duckdb"), read_only=True) as conn:
        verdicts = dict(conn.execute("SELECT answer_set || '/' || question_id, verdict FROM grades").fetchall())
        cited = conn.execute(
            "SELECT citations FROM answers WHERE answer_set = 'sysB' AND question_id = 'q2'"
        ).fetchone()
    assert verdicts == {
        "sysA/q1": "correct", "sysA/q2": "correct", "sysA/q3": "correct", "sysA/q4": "correct",
        "sysB/q1": "wrong", "sysB/q2": "wrong", "sysB/q3": "correct", "sysB/q4": "correct",
    }  # fmt: skip
    assert list(cited[0]) == ["bill", "statement"]  # a CSV list cell, split at `;`
    # each answer as `ragpipe grade` grades it from the same two files, no corpus
    alone = ragpipe(env, "grade", "--questions", str(folder / "questions.csv"), "--answers", str(folder / "b.csv"),
                    "--jsonl").stdout  # fmt: skip
    assert {f"sysB/{r['question_id']}": r["verdict"] for r in map(json.loads, alone.splitlines())} == {
        k: v for k, v in verdicts.items() if k.startswith("sysB/")
    }
    compared = ragpipe(env, "compare", "--corpus", "mine", "--config", "default", "--a", "sysA", "--b", "sysB")
    assert compared.returncode == 0 and "B wins 0, loses 2" in compared.stdout, compared.stdout
    gate = ragpipe(env, "gate", "--corpus", "mine", "--baseline", "sysA", "--candidate", "sysB")
    assert gate.returncode == 4 and "FAIL money: B states a wrong amount of money in 1 answer(s): q2" in gate.stdout
    board = json.loads(ragpipe(env, "leaderboard", "--corpus", "mine", "--json").stdout)
    assert [r["system"] for r in board["systems"]] == ["sysA", "sysB"]
    card = ragpipe(env, "scorecard", "--corpus", "mine", "--wide")
    assert card.stdout.count("no documents") == 4, card.stdout  # retrieval and misses, for each system
    review = ragpipe(env, "review", "--corpus", "mine", "--config", "default", "--out", str(folder / "r.html"))
    assert review.returncode == 0 and "q2" in (folder / "r.html").read_text(), review.stdout + review.stderr
    regraded = ragpipe(env, "regrade")
    assert "mine/default: no verdict flipped" in regraded.stdout, regraded.stdout + regraded.stderr
    delta = ragpipe(env, "delta", "--corpus", "mine", "--json")
    assert delta.returncode == 0 and json.loads(delta.stdout)["changed"] == 0, delta.stdout


@pytest.mark.end_to_end
def test_a_bad_question_file_or_a_taken_name_makes_no_corpus(files):
    folder, env = files
    (folder / "bad.csv").write_text("id,text\n,What?\nq2,Why?,extra\n")
    bad = ragpipe(env, "corpus", "new", "bad", "--questions", str(folder / "bad.csv"))
    said = " ".join((bad.stdout + bad.stderr).split())
    assert bad.returncode != 0 and "bad.csv:2: field id" in said and "bad.csv:3: field (row)" in said, said
    assert not (folder / "corpora" / "bad.yaml").exists() and not (folder / "corpora" / "bad").exists()
    taken = ragpipe(env, "corpus", "new", "demo", "--questions", str(folder / "questions.csv"))
    assert taken.returncode != 0 and "corpus 'demo' exists already" in taken.stdout + taken.stderr
