"""The voice reading: what an answer reports its sources as saying is not its own claim. Off, the whole
answer is its own voice. Generated over the attribution markers' shapes and amounts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.grading.readings.graded import graded, moved, question

SOURCES = ["Source 3", "the statement", "the bill", "page 2 of the document"]


def test_a_key_stated_only_in_the_sources_voice_is_not_asserted(rules):
    q = question("What is the amount due?", "$26.99", money_key="$26.99")
    on, off = moved(q, "This is indicated in Source 3, where the amount due is listed as $26.99.", rules, "voice")
    assert on != off and off[0] == "correct"


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SOURCES), st.integers(100, 999), st.integers(100, 999))
def test_the_own_claim_decides_not_the_sources(rules, source, key, other):
    """The answer asserts `other` and reports the source's `key` after a mid-sentence attribution."""
    q = question("What is the amount due?", f"${key}.00", money_key=f"${key}.00")
    answer = f"The amount due is ${other}.00, as shown in {source}, where the ending balance is listed as ${key}.00."
    on = graded(q, answer, rules)
    assert (on.verdict == "correct") is (key == other), (answer, on.rule)
