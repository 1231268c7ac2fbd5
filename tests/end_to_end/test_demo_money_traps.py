"""`make run`'s last step: a system that misreads the demo's bills (corpora/demo/answers/) fails the money bar.
Its questions are the demo's own, word for word; every answer states a wrong amount for what was asked."""

from __future__ import annotations

import json

import yaml

from tests.commands import env_for, ragpipe
from tests.conftest import ROOT

FOLDER = ROOT / "corpora" / "demo" / "answers"


def test_the_traps_ask_the_demos_own_questions():
    demo = {q["id"]: q for q in yaml.safe_load((ROOT / "corpora/demo/questions.yaml").read_text())["questions"]}
    asked = [json.loads(line) for line in (FOLDER / "misread-bills-questions.jsonl").read_text().splitlines()]
    assert asked and all(
        (q["question"], q["gold_answer"], q["money_key"], q["kind"])
        == (demo[q["id"]]["text"], demo[q["id"]]["gold_answer"], demo[q["id"]]["money_key"], demo[q["id"]]["kind"])
        for q in asked
    )


def test_a_system_that_misreads_the_bills_fails_zero_wrong_money(tmp_path):
    questions, answers = FOLDER / "misread-bills-questions.jsonl", FOLDER / "misread-bills.jsonl"
    env = env_for(tmp_path)
    shown = ragpipe(env, "grade", "--questions", str(questions), "--answers", str(answers))
    assert shown.returncode == 0, shown.stderr
    assert "6 money question(s): ZERO-WRONG-MONEY FAIL (6 wrong amounts)" in " ".join(shown.stdout.split())
    rows = [json.loads(line) for line in ragpipe(env, "grade", "--questions", str(questions), "--answers",
                                                  str(answers), "--jsonl").stdout.splitlines()]  # fmt: skip
    assert len(rows) == 6 and all(
        r["verdict"] == "wrong" and r["firm"] and r["rule"].startswith("money.") for r in rows
    )
