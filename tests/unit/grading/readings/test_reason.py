"""The reason reading: an answer to a why-question that shares only the gold's place or time shares no
reason. Generated over the ways a question asks why, and the ways it does not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ragpipe.grading.readings.reason import Reason
from tests.unit.grading.readings.graded import graded, moved, question

GOLD = "Because fuel surcharges doubled on its European routes."
PLACE_ONLY = "Because of port congestion on its European routes."
ASKS_WHY = ["Why did freight costs rise in 2022?", "What drove the rise in freight costs in 2022?",
            "What were the main reasons freight costs rose in 2022?", "What caused freight costs to rise in 2022?"]  # fmt: skip
ASKS_WHAT = ["How did freight costs change in 2022?", "What happened to freight costs in 2022?"]


def test_a_reason_met_only_by_its_place_is_partial_and_met_without_the_reading(rules):
    on, off = moved(question(ASKS_WHY[0], GOLD), PLACE_ONLY, rules, "reason")
    assert on == ("partial", "needles.mined.modifier_only") and off == ("correct", "needles.mined.all")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ASKS_WHY + ASKS_WHAT))
def test_only_a_question_that_asks_why_wants_more_than_the_place(rules, text):
    on = graded(question(text, GOLD), PLACE_ONLY, rules)
    assert (on.rule == "needles.mined.modifier_only") is (text in ASKS_WHY), (text, on.rule)


def test_how_a_question_asks_why_is_the_rules_own(rules):
    q = question(ASKS_WHY[0], GOLD)
    no_why = rules.model_copy(update={"reason": Reason(why_questions=rules.reason.why_questions[1:])})
    assert graded(q, PLACE_ONLY, rules).verdict == "partial" and graded(q, PLACE_ONLY, no_why).verdict == "correct"
