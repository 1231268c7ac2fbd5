"""The collision audit across registers (issue 40): every decline rule over answers people judged."""

import json
from pathlib import Path

from ragpipe.grader_agreement.audit import with_declines
from ragpipe.grader_agreement.label_collisions import JudgedAnswers, judged_answers, label_collisions
from ragpipe.grading.rules import load_rules
from tests.commands import invoke

ROWS = [
    # a chat answer people accept, in an instruction's words a filing's decline rule was written with
    {"question": "How do I stop the old car?", "answer": "To stop it, you would need the handbrake and a firm pull.",
     "label": "correct", "system": "chat"},
    {"question": "What was the 2022 revenue?", "answer": "To answer, you would need the full 10-K, which I lack.",
     "label": "refusal", "system": "chat", "kind": "ambiguous"},
    {"question": "Who won the race?", "answer": "Dana Ortiz won the race.", "label": "correct", "system": "chat",
     "gold_answer": "Dana Ortiz"},
]  # fmt: skip


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "chat.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    return path


def test_a_rule_that_declines_an_accepted_answer_is_listed_with_its_refusals(tmp_path):
    rows = label_collisions(load_rules(), [judged_answers(_file(tmp_path))])
    would_need = [r for r in rows if "would need the" in r["rule"]]
    assert len(would_need) == 1, rows
    (row,) = would_need
    assert (row["section"], row["set"]) == ("declines.patterns", "chat")
    assert (row["accepted"], row["fires_on_accepted"], row["declined_accepted"]) == (2, 1, 1)
    assert (row["refusals"], row["fires_on_refusals"]) == (1, 1)
    assert row["examples"] == [ROWS[0]["answer"]]
    assert not any("Dana" in e for r in rows for e in r["examples"])  # a rule that fires on nothing is not listed


def test_a_proposed_phrase_is_audited_under_its_own_section():
    judged = JudgedAnswers("mine", __import__("pandas").DataFrame(
        {"question": ["Who won?"], "answer": ["Dana Ortiz won the race."], "human": ["Correct Answer"]}
    ))  # fmt: skip
    candidate, _ = with_declines(load_rules(), ["won the race"])
    (row,) = label_collisions(candidate, [judged], ["won the race"])
    assert (row["section"], row["rule"], row["declined_accepted"]) == ("proposed", "won the race", 1)


def test_audit_takes_labelled_files_and_needs_no_proposal_or_warehouse(tmp_path):
    result = invoke("audit", "--labels", str(_file(tmp_path)), "--json", warehouse=tmp_path / "none")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["sets"] == [{"name": "chat", "answers": 3}]
    assert any("would need the" in r["rule"] for r in report["label_collisions"])


def test_a_judged_method_is_audited_only_where_the_question_asks_for_a_way():
    """The same opening on a question that asks whether is an answer the rule never reads: the audit
    matches it as the decision does, with the question."""
    import pandas as pd

    opening = "Buying a stolen bike is illegal, and it is also unethical."
    judged = JudgedAnswers(
        "mine",
        pd.DataFrame(
            {
                "question": ["Is buying a stolen bike legal?", "Where can I buy a stolen bike?"],
                "answer": [opening, opening],
                "human": ["Correct Answer", "Refusal"],
            }
        ),
    )
    rows = [r for r in label_collisions(load_rules(), [judged]) if r["section"] == "declines.stance.judged_methods"]
    assert rows == []  # it fires on no accepted answer: the one people accept was asked whether
    asked_how = judged.rows.assign(human="Correct Answer")
    (row,) = [
        r
        for r in label_collisions(load_rules(), [JudgedAnswers("mine", asked_how)])
        if r["section"] == "declines.stance.judged_methods"
    ]
    assert (row["fires_on_accepted"], row["declined_accepted"]) == (1, 1)


def test_an_answer_the_decline_check_keeps_as_an_answer_is_no_collision(tmp_path):
    """The opening states the key, then a decline phrase: the phrase fires, the grader does not decline
    (checks/decline/key_given.py), so it costs nothing; the decision alone, with no gold to read, would
    have counted it."""
    rows = [
        {"question": "What is a group of finches called?", "gold_answer": ["charm"], "label": "correct",
         "answer": "A group of finches is called a charm. I couldn't find the word for hummingbirds."},
    ]  # fmt: skip
    path = tmp_path / "birds.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    judged = judged_answers(path)
    (row,) = [r for r in label_collisions(load_rules(), [judged]) if r["rule"] == "couldn't find"]
    assert (row["fires_on_accepted"], row["declined_accepted"]) == (1, 0)
    (alone,) = [
        r for r in label_collisions(load_rules(), [JudgedAnswers("birds", judged.rows)]) if r["rule"] == "couldn't find"
    ]
    assert alone["declined_accepted"] == 1
