"""The money guard: a money question whose asserted figure is not the key is wrong, whatever else it says."""

import pytest

from tests.unit.grading.checks.cases import graded

DUE = {"text": "What is the amount due on the bill?", "gold_answer": "$26.99", "money_key": "$26.99"}
OWED = {"text": "How much tax do they owe?", "gold_answer": "They owe $44,322.", "money_key": "$44,322"}

CASES = [
    # (question, answer, verdict, rule)
    (DUE, "The ending balance is $42.99, but the amount due is $26.99.", "correct", None),
    (DUE, "The amount due is $42.99.", "wrong", "money.asked_measure_other_figure"),
    (OWED, "They owe $44,322.", "correct", None),
    (OWED, "Total income was $512,480 and they owe $450,658.", "wrong", "money.wrong_figure"),
]


@pytest.mark.parametrize(("question", "answer", "verdict", "rule"), CASES)
def test_the_money_guard_on_each_case(question, answer, verdict, rule):
    g = graded(question, answer)
    assert g.verdict == verdict
    if rule is not None:
        assert g.rule == rule and g.checks[-1] == "money_guard" and g.wrong_money
    else:
        assert "money_guard" not in g.checks
