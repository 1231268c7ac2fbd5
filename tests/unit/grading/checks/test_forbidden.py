"""The forbidden claim: an answer stating what the question's author marked wrong is wrong."""

import pytest

from tests.unit.grading.checks.cases import graded

SHIP = {"text": "Which carrier ships the order?", "gold_answer": "Northwind", "must_not_contain": ["Southwind"]}

CASES = [
    (SHIP, "Northwind ships the order.", "correct"),
    (SHIP, "Southwind ships the order.", "wrong"),
    (SHIP, "Northwind and Southwind both ship it.", "wrong"),
]


@pytest.mark.parametrize(("question", "answer", "verdict"), CASES)
def test_the_forbidden_claim_on_each_case(question, answer, verdict):
    g = graded(question, answer)
    assert g.verdict == verdict
    assert (g.rule == "needles.must_not_contain") == (verdict == "wrong")
