"""The measures reading: a figure stated as a measure the question did not ask is not its value. Generated
over the qualifier families of rules.yaml, the truth known by construction: the same qualifier is the
asked measure, another one of its family is another measure; off, every figure is just a figure."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ragpipe.grading.readings.measures import Measures
from tests.unit.grading.readings.graded import graded, moved, question

PROFIT = ["gross", "operating", "segment", "net", "pretax"]


def test_the_asked_measure_stated_as_another_figure_is_wrong_and_right_without_the_reading(rules):
    q = question("What was the company's operating margin in FY2022?", "12.5%")
    on, off = moved(q, "Operating margin was 14.0%; gross margin was 12.5%.", rules, "measures")
    assert on == ("wrong", "needles.asked_measure_other_figure") and off == ("correct", "needles.mined.all")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PROFIT), st.sampled_from(PROFIT), st.integers(1, 99), st.integers(0, 9))
def test_a_figure_is_the_asked_measures_only_under_its_own_qualifier(rules, asked, said, whole, tenth):
    value = f"{whole}.{tenth}%"
    q = question(f"What was the company's {asked} margin in FY2022?", value)
    answer = f"{said.capitalize()} margin was {value}."
    on, off = graded(q, answer, rules), graded(q, answer, rules, {"measures"})
    assert off.verdict == "correct"
    assert (on.verdict == "correct") is (asked == said), (answer, on.rule)


def test_the_families_are_the_rules_own(rules):
    """Without the family of profit levels, "gross" and "operating" margins are one measure worded otherwise."""
    q = question("What was the company's operating margin in FY2022?", "12.5%")
    others = Measures(qualifier_families=[["basic", "diluted"]])
    loose = rules.model_copy(update={"measures": others})
    assert graded(q, "Gross margin was 12.5%.", rules).verdict == "wrong"
    assert graded(q, "Gross margin was 12.5%.", loose).verdict == "correct"


def test_a_sentence_that_compares_is_the_rules_compares(rules):
    """ "..., compared with gross margin of 12.5%" compares: 14.0% is no contradiction while "compared" is a
    comparing word; with none listed, the answer states the asked measure as another figure."""
    q = question("What was the company's operating margin in FY2022?", "12.5%")
    answer = "Operating margin was 14.0%, compared with gross margin of 12.5%."
    strict = rules.model_copy(update={"measures": Measures(compares=[])})
    assert graded(q, answer, rules).rule != "needles.asked_measure_other_figure"
    assert graded(q, answer, strict).rule == "needles.asked_measure_other_figure"
