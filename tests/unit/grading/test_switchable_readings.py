"""Each reading that can be switched off changes what the checks see, and only when it is off: the
answer that needs it is graded differently without it, and every other answer alike."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragpipe.corpus.questions import Question
from ragpipe.grading.checks.registry import CHECK_IDS
from ragpipe.grading.grader import grade
from ragpipe.grading.switchable_readings import READING_IDS, READINGS


def _q(text: str, gold: str, **kw) -> Question:
    return Question(id="q", text=text, gold_answer=gold, **kw)


def test_readings_and_checks_are_named_apart():
    assert not READING_IDS & set(CHECK_IDS) and len(READING_IDS) == len(READINGS)


@pytest.mark.parametrize(
    ("reading", "question", "answer"),
    [
        # mojibake: "JosÃ©" is "José" only once the encoding is repaired
        (
            "repair",
            _q("Who wrote Blindness?", "José Saramago", must_contain=["José Saramago"]),
            "JosÃ© Saramago wrote it.",
        ),
        # the key stated only in the sources' voice
        (
            "voice",
            _q("What is the amount due?", "$26.99", money_key="$26.99"),
            "This is indicated in Source 3, where the amount due is listed as $26.99.",
        ),
        # a hedge between two amounts asserts neither
        ("unasserted", _q("What is the amount due?", "$150", money_key="$150"), "Either $150 or $175 is due."),
    ],
)
def test_an_answer_that_needs_the_reading_is_graded_otherwise_without_it(rules, reading, question, answer):
    on, off = grade(question, answer, [], rules), grade(question, answer, [], rules, off=frozenset({reading}))
    assert (on.verdict, on.rule) != (off.verdict, off.rule), (on, off)


plain = st.text(alphabet=st.sampled_from("abcdefghij $0123456789.,"), min_size=1, max_size=40)


@settings(max_examples=300, deadline=None)
@given(plain, st.sampled_from(sorted(READING_IDS)))
def test_an_answer_none_of_them_touches_is_graded_alike_without_each(rules, answer, reading):
    """No quotes, no attribution words, no correction, no damaged encoding: nothing for a reading to do."""
    question = _q("What is the amount due?", "$150", money_key="$150")
    on, off = grade(question, answer, [], rules), grade(question, answer, [], rules, off=frozenset({reading}))
    assert (on.verdict, on.rule, on.firm) == (off.verdict, off.rule, off.firm)
