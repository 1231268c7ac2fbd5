"""The needle count: the key, the authored needles or the mined ones, counted: all met is correct, some is
partial, none is wrong; a question with nothing to count is ungradable."""

import pytest

from tests.unit.grading.checks.cases import graded

WINNER = {"text": "Who won the 2019 race?", "gold_answer": "Dana Ortiz"}
TWO = {"text": "Which two cities host the offices?", "gold_answer": "Lyon", "must_contain": ["Lyon", "Porto"]}

CASES = [
    # (question, answer, verdict)
    (WINNER, "The 2019 race was won by Dana Ortiz.", "correct"),
    (WINNER, "It was won by Sam Reyes.", "wrong"),
    (TWO, "The offices are in Lyon and Porto.", "correct"),
    (TWO, "The offices are in Lyon.", "partial"),
    (TWO, "The offices are in Madrid.", "wrong"),
]


@pytest.mark.parametrize(("question", "answer", "verdict"), CASES)
def test_the_needle_count_on_each_case(question, answer, verdict):
    g = graded(question, answer)
    assert g.verdict == verdict
    assert g.checks[-1] == "needles" and g.rule.startswith("needles.")


def test_nothing_to_count_is_ungradable():
    g = graded({"text": "Is it so?", "gold_answer": ""}, "It is so.")
    assert g.verdict == "ungradable" and g.rule == "needles.ungradable"
