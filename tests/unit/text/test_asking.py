"""What a question asks for by its shape: a number (as the rules' patterns say), several things at once."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.text.asking import asks_for_figure, asks_for_several

COUNTS = ["two", "three", "4", "several", "both"]


@given(
    st.sampled_from(["Which", "What", "Name the"]), st.sampled_from(COUNTS), st.sampled_from(["suppliers", "segments"])
)
def test_a_question_naming_a_count_asks_for_several(opening, count, things):
    assert asks_for_several(f"{opening} {count} {things} did Venmark add in 2020?")
    assert not asks_for_several(f"{opening} supplier did Venmark add in 2020?")


def test_a_figure_is_asked_for_as_the_rules_patterns_say(rules):
    patterns = tuple(p.pattern for p in rules.needles.figure_question_patterns)
    assert asks_for_figure("How much did Keswick Mills pay in dividends?", patterns)
    assert asks_for_figure("What was the gross margin in FY2022?", patterns)
    assert not asks_for_figure("Who founded Trask & Co?", patterns)
    assert not asks_for_figure("How much did Keswick Mills pay in dividends?", ())  # no pattern, no figure asked
