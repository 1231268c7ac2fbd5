"""When the gold answer is that there is none, an opening that says so has answered: a decline phrase
after it is a caveat. Needles mined from the gold text, as for any labelled set. Invented examples."""

import pytest

from ragpipe.corpus.gold_text import gold_text_needles
from ragpipe.corpus.questions import Question
from ragpipe.grading.grade_table import mined_by_question
from ragpipe.grading.grader import grade


def _asked(text: str, gold: str) -> tuple[Question, tuple]:
    question = Question(id="q1", text=text, kind="answerable", gold_answer=gold)
    return question, mined_by_question(gold_text_needles("invented", [question])).get("q1", ())


DEBT = ("Which debt securities does Acme have listed on a national exchange?", "There are none")
MARGIN = (
    "What drove Acme Bank's gross margin change? Say so if it is not useful.",
    "Gross margin is not a relevant metric for a bank",
)


@pytest.mark.parametrize(
    "asked, answer",
    [
        (
            DEBT,
            "Acme did not have any debt securities listed on an exchange. To confirm, you would need to check its latest 10-K.",
        ),
        (
            DEBT,
            "The debt securities Acme has listed are as follows:\n\n* None\n\nThe filing does not mention any other securities.",
        ),
        (
            MARGIN,
            "Gross margin is not a meaningful measure for a bank like Acme. The filing does not provide a gross margin.",
        ),
    ],
)
def test_an_opening_that_gives_the_none_answers_whatever_follows(rules, asked, answer):
    question, mined = _asked(*asked)
    assert {kind for _, kind, _ in mined} & {"absence", "inapplicable"}, "the gold's none is mined"
    verdict = grade(question, answer, [], rules, mined)
    assert verdict.verdict == "correct" and not verdict.declined


@pytest.mark.parametrize(
    "answer",
    [
        "The document does not provide information on any debt securities Acme has listed.",  # of the document
        "You would need to check the 10-K; Acme has no listed debt.",  # the decline comes first
        "I cannot determine that from the context provided.",
    ],
)
def test_a_none_said_only_of_the_source_or_after_the_decline_still_declines(rules, answer):
    question, mined = _asked(*DEBT)
    assert grade(question, answer, [], rules, mined).declined


def test_the_same_opening_declines_where_the_gold_names_something(rules):
    question, mined = _asked("Which debt securities does Acme have listed?", "The 2.5% Notes due 2031")
    answer = "Acme did not have any debt securities listed on an exchange. To confirm, you would need to check its latest 10-K."
    assert grade(question, answer, [], rules, mined).declined


@pytest.mark.parametrize(
    "asked, answer, firm",
    [
        # the source holds not any of the things asked about: the gold's none to some readers, a refusal to others
        (DEBT, "The document does not provide information on any debt securities Acme has listed.", False),
        (DEBT, "Based on the context, there is no mention of any listed debt securities. I cannot say more.", False),
        # a none of the information, not of the securities
        (DEBT, "There is no information about Acme's listed debt securities in the context provided.", True),
        (DEBT, "I cannot determine that from the context provided.", True),
        # the same words where the gold names something: a plain decline
        (
            ("Which debt securities does Acme have listed on a national exchange?", "The 4.5% Notes due 2030"),
            "The document does not provide information on any debt securities Acme has listed.",
            True,
        ),
    ],
)
def test_a_decline_that_says_the_source_holds_none_of_the_things_is_tentative(rules, asked, answer, firm):
    question, mined = _asked(*asked)
    verdict = grade(question, answer, [], rules, mined)
    assert verdict.declined and verdict.verdict == "wrong"
    assert verdict.exact is firm
