"""The polarity check: a yes/no question answered with the opposite word is wrong; the right word, stated
or implied by restating the question, is one more requirement of the needle count (tentative if implied)."""

import pytest

from tests.unit.grading.checks.cases import graded

GROWS = {
    "text": "Does Amcor have an improving gross margin profile?",
    "gold_answer": "No",
    "polarity": "no",
}

CASES = [
    # (answer, verdict, rule, firm)
    ("Yes, Amcor's gross margin is improving.", "wrong", "polarity.wrong", True),
    ("No, its gross margin is declining.", "correct", None, True),
    ("Amcor does not have an improving gross margin profile: its gross margin declined.", "correct", None, False),
]


@pytest.mark.parametrize(("answer", "verdict", "rule", "firm"), CASES)
def test_the_polarity_check_on_each_case(answer, verdict, rule, firm):
    g = graded(GROWS, answer)
    assert g.verdict == verdict and g.exact == firm
    assert "polarity" in g.checks
    if rule is not None:
        assert g.rule == rule


def test_switched_off_the_needle_count_sees_no_yes_no():
    """The yes/no is a reading the polarity check makes: off, the needle count does not require it either."""
    from ragpipe.corpus.questions import Question
    from ragpipe.grading.grader import grade
    from tests.unit.grading.checks.cases import rules

    q = Question(id="q", **GROWS)
    on = grade(q, "No, it is declining.", [], rules())
    off = grade(q, "No, it is declining.", [], rules(), off=frozenset({"polarity"}))
    assert (on.verdict, on.rule) == ("correct", "needles.mined.all")  # the right word, counted as met
    assert (off.verdict, off.checks) == ("ungradable", ("needles",))  # nothing to count without the reading
