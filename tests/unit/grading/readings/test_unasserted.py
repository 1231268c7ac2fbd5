"""The unasserted reading: a hedge between two amounts asserts neither, a denied or corrected figure is
not asserted. Off, every clause is asserted. Generated over amounts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.grading.readings.graded import graded, moved, question


def test_a_hedge_between_two_amounts_asserts_neither(rules):
    q = question("What is the amount due?", "$150", money_key="$150")
    on, off = moved(q, "Either $150 or $175 is due.", rules, "unasserted")
    assert on != off and on[0] != "correct"


@settings(max_examples=100, deadline=None)
@given(st.integers(100, 999), st.integers(100, 999))
def test_a_denied_key_beside_another_amount_is_not_the_answer(rules, key, other):
    q = question("What is the amount due?", f"${key}", money_key=f"${key}")
    answer = f"The amount due is not ${key}; it is ${other}."
    on = graded(q, answer, rules)
    assert (on.verdict == "correct") is (key == other), (answer, on.rule)
