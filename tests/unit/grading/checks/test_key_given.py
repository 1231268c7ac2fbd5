"""When the opening states the key exactly, a decline phrase after it is a caveat, not a refusal
(grading/checks/decline/key_given.py). Invented examples; keys authored, or mined from a gold text as
for any labelled set."""

import pytest

from ragpipe.corpus.gold_text import gold_text_needles
from ragpipe.corpus.questions import Question
from ragpipe.grading.grade_table import mined_by_question
from ragpipe.grading.grader import grade

FINCHES = Question(id="q", text="What is a group of finches called?", must_contain_any=["charm", "chirm"])
CEO = Question(id="q", text="Who leads Acme, and who chairs it?", must_contain=["Dana Ortiz", "Lee Park"])


@pytest.mark.parametrize(
    "answer",
    [
        "A group of finches is called a charm. However, I couldn't find the collective noun for hummingbirds.",
        "Finches gather in a charm; I do not have any information on hummingbirds.",
    ],
)
def test_an_opening_that_states_the_key_has_answered(rules, answer):
    g = grade(FINCHES, answer, [], rules)
    assert not g.declined and g.verdict == "correct", g


@pytest.mark.parametrize(
    "question, answer",
    [
        # the decline comes first: the key after it does not outweigh it
        (FINCHES, "I couldn't find any information on that. Some sources say a charm."),
        # the key after the opening
        (FINCHES, "Finches are small birds. I couldn't find a collective noun. Some say a charm."),
        # half the key: Lee Park is not given
        (CEO, "Acme is led by Dana Ortiz. I do not have any information on who chairs it."),
    ],
)
def test_a_decline_stands_unless_the_opening_gave_the_whole_key_before_it(rules, question, answer):
    assert grade(question, answer, [], rules).declined


def test_a_mined_word_in_the_opening_may_be_a_mention_and_the_decline_stands(rules):
    """Words mined from a gold text are met loosely (tentative): naming one is not stating the answer."""
    question = Question(id="q1", text="Which investment was Acme's largest?", gold_answer="corporate bonds")
    mined = mined_by_question(gold_text_needles("invented", [question])).get("q1", ())
    answer = "The filing lists corporate bonds and treasury bills. It does not say which is largest."
    assert grade(question, answer, [], rules, mined).declined
    assert not grade(question, "Corporate bonds were the largest.", [], rules, mined).declined
