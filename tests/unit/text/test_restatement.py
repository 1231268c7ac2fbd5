"""A sentence restates a question when it holds enough of its content words; an antonym turns its sense;
negations are counted as words. Generated over the question's measure and the words that turn it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.text.restatement import asked, negations_in, restatement

ANTONYMS = (("increase", "decrease"), ("improve", "decline"))
NEGATIONS = ("not", "n't", "no", "never")
measures = st.sampled_from(["gross margin", "operating income", "quick ratio", "net revenue"])


@given(measures, st.sampled_from(ANTONYMS))
def test_a_restatement_keeps_or_turns_the_sense(measure, pair):
    word, other = pair
    question = f"Did the company's {measure} {word} in FY2022?"
    assert restatement(question, f"The company's {measure} did {word} in FY2022.", 0.6, ANTONYMS) == 0
    assert restatement(question, f"The company's {measure} did {other} in FY2022.", 0.6, ANTONYMS) == 1
    assert restatement(question, "Revenue was $4.1 billion.", 0.6, ANTONYMS) is None


@given(
    st.lists(
        st.sampled_from(["not", "no", "never", "isn't", "didn't", "notes", "nothing", "non-recurring"]), max_size=6
    )
)
def test_negations_are_counted_as_whole_words(words):
    expected = sum(w in NEGATIONS or w.endswith("n't") for w in words)
    assert negations_in(" ".join(words), NEGATIONS) == expected


def test_what_follows_the_question_mark_is_no_part_of_it():
    assert asked("Is it useful? If not, state that.") == "Is it useful?"
