"""The slot reading: the name an answer asserts the question's predicate of is its answer, the others it
mentions are not. Generated over names and the rules' verbs: whoever the clause asserts it of decides."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ragpipe.grading.readings.slot import Slot
from tests.unit.grading.readings.graded import graded, moved, question

NAMES = ["Kitchenware", "Outdoor", "Garden", "Lighting", "Bedding", "Toys"]
QUESTION = "Which product line had the highest margin in 2022?"


def test_a_name_mentioned_beside_the_filler_is_not_the_answer_and_is_without_the_reading(rules):
    q = question(QUESTION, "Outdoor")
    on, off = moved(q, "Kitchenware had the highest margin in 2022; Outdoor came second.", rules, "slot")
    assert on == ("wrong", "needles.slot_filled_otherwise") and off == ("correct", "needles.mined.all")


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(NAMES), st.sampled_from(NAMES))
def test_whoever_fills_the_slot_decides(rules, gold, filler):
    q = question(QUESTION, gold)
    runner_up = next(n for n in NAMES if n not in (gold, filler))
    mention = gold if filler != gold else runner_up
    answer = f"{filler} had the highest margin in 2022; {mention} came second."
    on, off = graded(q, answer, rules), graded(q, answer, rules, {"slot"})
    assert (on.verdict == "correct") is (filler == gold), (answer, on.rule)
    assert off.verdict == "correct"  # the gold's name is in the answer either way


def test_the_verbs_that_open_a_slot_are_the_rules_own(rules):
    q = question(QUESTION, "Outdoor")
    answer = "Kitchenware had the highest margin in 2022; Outdoor came second."
    without_had = rules.model_copy(update={"slot": Slot(verbs=[v for v in rules.slot.verbs if v != "had"])})
    assert graded(q, answer, rules).verdict == "wrong" and graded(q, answer, without_had).verdict == "correct"


def test_a_verb_is_words():
    import pytest
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="a verb is words"):
        Slot(verbs=["had|.*"])
