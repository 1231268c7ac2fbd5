"""The examples of issue 15 (the grader, generalized), each graded as the issue says."""

import pytest

from ragpipe.grading.grader import grade
from ragpipe.questions import Question


def q(kind="answerable", **kw):
    base = {"id": "q", "text": "How much do they owe?", "kind": kind, "golden_docs": ["doc"]}
    return Question(**{**base, **kw})


@pytest.mark.parametrize(
    "key, question, answer",
    [
        ("$44,322", "How much do they owe?", "They owe $44,322. Total income was $512,480."),
        ("$26.99", "What is the amount due?", "The ending balance is $42.99; after the $16.00 credit the amount due is $26.99."),
        ("$5,818", "What is the net working capital in USD millions?", "$19,815 million - $13,997 million = $5,818 million"),
    ],
)
def test_the_figure_the_answer_gives_is_graded_the_rest_are_mentions(rules, key, question, answer):
    g = grade(q(text=question, money_key=key), answer, [], rules)
    assert (g.verdict, g.wrong_money) == ("correct", []), g


@pytest.mark.parametrize(
    "key, answer",
    [
        ("$44,322", "Total income was $512,480 and they owe $450,658"),  # key absent, another figure asserted
        ("$26.99", "This is indicated in Source 3, where the ending balance is listed as $42.99, so the amount due is $42.99"),
    ],
)
def test_a_wrong_figure_without_the_key_is_still_wrong(rules, key, answer):
    g = grade(q(money_key=key), answer, [], rules)
    assert g.verdict == "wrong" and g.rule == "money.wrong_figure", g


@pytest.mark.parametrize(
    "key, question, answer, verdict",
    [
        ("$11,588", "What is net income in USD millions?", "Net income was $11.6 billion.", "correct"),
        ("$1.70 billion", "What was the capital expenditure?", "Capital expenditure was $1,699 million.", "correct"),
        ("$11,588", "What is net income in USD millions?", "Net income was $12.9 billion.", "wrong"),
        ("$11,588", "What is net income in USD millions?", "Net income was $12 billion.", "wrong"),  # two figures: too loose
        ("$44,322", "How much do they owe?", "They owe $450,658.", "wrong"),
    ],
)
def test_precision_is_the_coarser_of_the_two_never_below_three_figures(rules, key, question, answer, verdict):
    assert grade(q(text=question, money_key=key), answer, [], rules).verdict == verdict
