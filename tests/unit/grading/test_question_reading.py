"""The question read once: what the grader reads a question as asking, under its rules, is one value the
view carries and every check reads. Generated questions whose asking is known by construction."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from ragpipe.corpus.questions import Question, questions_frame
from ragpipe.grading.grader import answer_view, grade
from ragpipe.grading.question_reading import COLUMNS, question_readings, read_question
from ragpipe.grading.readings.reason import Reason
from ragpipe.review.asked import asked_line
from ragpipe.warehouse.nulls import records

MEASURES = ["operating income", "gross margin", "net revenue", "capital expenditure"]


def _q(text: str, gold: str = "", **kw) -> Question:
    return Question(id="q", text=text, gold_answer=gold, **kw)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(MEASURES), st.integers(1, 99_999), st.integers(0, 2), st.booleans())
def test_a_money_question_is_read_with_its_key_precision_and_unit(rules, measure, whole, decimals, millions):
    key = f"${whole:,}" + (f".{'5' * decimals}" if decimals else "")
    unit = " (in USD millions)" if millions else ""
    asked = read_question(_q(f"What was the company's {measure} in FY2022{unit}?", key, money_key=key), rules)
    assert asked.money_question and asked.money_key == key
    assert asked.precision == decimals  # in the question's unit: "$1.5" in USD millions is read to a tenth
    assert asked.scale == (Decimal(1_000_000) if millions else 1)
    assert asked.measure == frozenset({"oper", "incom"} if measure == "operating income" else asked.measure)
    assert ("oper" in asked.qualifiers) is (measure == "operating income")


def test_each_part_is_read_as_the_rules_say(rules):
    why = read_question(_q("Why did freight costs rise in 2022?"), rules)
    assert why.why and not why.several and not why.figure_wanted
    several = read_question(_q("Which three suppliers did Venmark add in 2020?"), rules)
    assert several.several and several.slot is None
    slot = read_question(_q("Which product line had the highest margin in 2022?"), rules)
    assert slot.slot is not None and slot.slot[0] == "had"
    choice = read_question(_q("Has the quick ratio improved or declined from FY2021 to FY2022?"), rules)
    assert choice.choice == ("improved", "declined")
    no_why = rules.model_copy(update={"reason": Reason(why_questions=rules.reason.why_questions[1:])})
    assert not read_question(_q("Why did freight costs rise in 2022?"), no_why).why


def test_the_view_carries_the_reading_and_the_grade_is_read_from_it(rules):
    q = _q("What was the company's operating margin in FY2022?", "12.5%")
    view = answer_view(q, "Operating margin was 12.5%.", [], rules)
    assert view.asked == read_question(q, rules)
    assert view.asked is answer_view(q, "Another answer.", [], rules).asked  # read once per question
    # the reading decides: a question read as asking why holds an answer to its place only partial
    why = _q("Why did freight costs rise in 2022?", "Because fuel surcharges doubled on its European routes.")
    from tests.unit.grading.readings.graded import graded

    assert graded(why, "Because of port congestion on its European routes.", rules).verdict == "partial"
    assert grade(why, "x", [], rules).verdict  # graded at all without mined needles: no crash


def test_the_table_holds_one_row_per_question_as_graded_in_its_columns(rules):
    questions = questions_frame(
        "c",
        [
            Question(id="a", text="What is the amount due?", gold_answer="$26.99"),  # the gold gives the key
            Question(id="b", text="Why did costs rise?", gold_answer="Fuel."),
        ],
    )
    graded = pd.DataFrame(
        {"question_id": ["a", "a", "b", "a"], "kind": ["answerable", "answerable", "answerable", "negative"]}
    )
    table = question_readings(questions, graded, rules)
    assert list(table.columns) == ["question_id", *COLUMNS, "rules_version"]
    assert list(zip(table["question_id"], table["kind"])) == [
        ("a", "answerable"),
        ("a", "negative"),
        ("b", "answerable"),
    ]
    a, negative, b = records(table)  # as the review reads them: a null is None
    assert a["money_key"] == "$26.99" and a["precision"] == 2 and negative["money_key"] is None  # no key when negative
    assert b["why"] and not a["why"] and set(table["rules_version"]) == {rules.version}
    assert "a money key, $26.99 at 2 decimals" in asked_line(a) and "a reason" in asked_line(b)
    assert question_readings(questions, graded.iloc[:0], rules).empty
