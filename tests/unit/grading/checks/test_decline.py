"""The decline check: a decline is right where declining is (a negative or ambiguous question), wrong on
an answerable one; on a negative question anything but a decline is wrong."""

import pytest

from tests.unit.grading.checks.cases import graded

CASES = [
    # (kind, answer, verdict, rule)
    ("negative", "The documents do not say what the pet deposit is.", "correct", "negative.declined"),
    ("negative", "The pet deposit is $300.", "wrong", "negative.not_declined"),
    ("ambiguous", "I could not find the pet deposit in the documents.", "correct", "ambiguous.declined"),
    ("answerable", "I could not find the pet deposit in the documents.", "wrong", "answerable.declined"),
]


@pytest.mark.parametrize(("kind", "answer", "verdict", "rule"), CASES)
def test_the_decline_check_on_each_case(kind, answer, verdict, rule):
    g = graded({"text": "What is the pet deposit?", "gold_answer": "$300", "kind": kind}, answer)
    assert (g.verdict, g.rule) == (verdict, rule)
    assert g.checks[0] == "decline"
