"""No judge lifts a money verdict: a lenient judge on a real chat server on 127.0.0.1 says "correct" of
everything, and `ragpipe grade --judge` still grades every wrong amount wrong. It once turned each of
eleven wrong money answers correct ("The cleaning fee is $175", gold $150)."""

from __future__ import annotations

import json

import pytest

from tests.chat_server import ChatServer
from tests.commands import env_for, ragpipe
from tests.end_to_end.test_judge import KEY, _judges_file
from tests.unit.grading.test_money_generated import ISSUE_ROWS

LENIENT = 'judge:{"verdict": "correct", "reason": "close enough"}'
MORE = [
    ("How much is the pet deposit?", "$300", "The lease asks for a deposit for pets; ask the landlord."),  # no key
    ("How much is the parking fee?", "$85", "Parking costs $85 a month, billed with rent."),  # the key: may be lifted
]


@pytest.mark.end_to_end
def test_a_lenient_judge_lifts_no_money_verdict(tmp_path):
    rows = [*ISSUE_ROWS, *MORE]
    questions, answers = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    questions.write_text(
        "".join(json.dumps({"id": f"m{i}", "question": q, "gold_answer": g}) + "\n" for i, (q, g, _) in enumerate(rows))
    )
    answers.write_text(
        "".join(json.dumps({"question_id": f"m{i}", "answer": a}) + "\n" for i, (_, _, a) in enumerate(rows))
    )
    with ChatServer(default=LENIENT) as server:
        env = env_for(tmp_path, RAGPIPE_TEST_KEY=KEY, RAGPIPE_JUDGES=_judges_file(tmp_path, server))
        done = ragpipe(env, "grade", "--questions", str(questions), "--answers", str(answers), "--judge", "scripted",
                       "--judge-on", "all", "--jsonl")  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        asked = {r["question"] for r in server.requests}
    grades = {g["question_id"]: g for g in map(json.loads, done.stdout.splitlines()) if g}
    wrong = [f"m{i}" for i in range(len(ISSUE_ROWS))]
    assert all(g["money_question"] for g in grades.values())
    # every money violation stays the rules' and is never even asked about, --judge-on all included
    assert {grades[q]["verdict"] for q in wrong} == {"wrong"}, [grades[q] for q in wrong]
    assert all(grades[q]["rule"].startswith("money.") for q in wrong)
    assert not any(text in asked for text, _, _ in ISSUE_ROWS if text != "How much do they owe?")
    # an answer without the key: asked, and its "correct" decides nothing; one with the key may be lifted
    no_key, with_key = grades[f"m{len(ISSUE_ROWS)}"], grades[f"m{len(ISSUE_ROWS) + 1}"]
    assert no_key["verdict"] == "wrong" and no_key["judge_verdict"] == "unparsed", no_key
    assert "ZERO-WRONG-MONEY" in no_key["judge_reason"]
    assert with_key["verdict"] == "correct", with_key
