"""The stated reading: a gold that is a none (there is none, it does not apply, it did not move) is met by
an answer that says so in its own words. Generated over the words each says it with and the measures asked;
off, no answer says any of it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ragpipe.grading.readings.stated import Stated
from tests.unit.grading.readings.graded import graded, moved, question

THINGS = ["acquisitions", "divestitures", "share repurchases", "impairments", "restructuring charges"]


def test_an_answer_that_says_there_is_none_meets_a_none_and_only_with_the_reading(rules):
    q = question("How many acquisitions did the company make in FY2022?", "There were none.")
    on, off = moved(q, "The company made no acquisitions in FY2022.", rules, "stated")
    assert on == ("correct", "needles.mined.all") and off == ("wrong", "needles.mined.none")


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(THINGS),
    st.sampled_from(["no {t}", "zero {t}", "not report any {t}", "nothing of {t}"]),
    st.booleans(),
)
def test_a_none_is_met_in_the_opening_only(rules, thing, said, first):
    q = question(f"How many {thing} did the company make in FY2022?", "There were none.")
    none = f"The company made {said.format(t=thing)} in FY2022."
    lead = "The filing covers FY2022 in full."
    answer = f"{none} {lead}" if first else f"{lead} {none}"
    on, off = graded(q, answer, rules), graded(q, answer, rules, {"stated"})
    assert (on.verdict == "correct") is first, (answer, on.rule)
    assert off.verdict != "correct"


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["relevant", "meaningful", "useful", "applicable"]),
    st.sampled_from(["relevant", "meaningful", "useful", "applicable", "appropriate"]),
)
def test_a_measure_that_does_not_apply_is_met_in_other_words(rules, gold_word, said_word):
    q = question(
        "What is the gross margin of the bank in FY2022?", f"Gross margin is not a {gold_word} metric for a bank."
    )
    answer = f"For a bank, gross margin is not a {said_word} measure."
    assert graded(q, answer, rules).verdict == "correct"
    assert graded(q, answer, rules, {"stated"}).verdict != "correct"


def test_the_words_that_say_it_are_the_rules_own(rules):
    q = question("How did real growth change in FY2022?", "Real growth was flat.")
    answer = "Real growth was unchanged."
    narrow = rules.model_copy(update={"stated": Stated(unchanged=[r"\bflat\b"])})
    assert graded(q, answer, rules).verdict == "correct" and graded(q, answer, narrow).verdict != "correct"
