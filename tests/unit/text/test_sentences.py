"""A sentence: generated texts whose sentences are known by construction, cut back where they were joined,
a figure's decimal point never a boundary."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.text.sentences import asking_sentence, first_sentence, opening_statements, sentence_start, sentences

words = st.sampled_from(["the", "rent", "is", "due", "Lyon", "$1,145.50", "12.5%", "net", "pay", "on", "May"])
a_sentence = st.lists(words, min_size=1, max_size=8).map(" ".join)
stops = st.sampled_from([". ", "! ", "? ", "; ", "\n"])


@given(st.lists(st.tuples(a_sentence, stops), min_size=1, max_size=6))
def test_sentences_are_cut_where_they_were_joined_and_each_offset_knows_its_start(parts):
    text, starts = "", []
    for body, stop in parts:
        starts.append(len(text))
        text += body + stop
    assert [start for start, _ in sentences(text)] == starts
    for (start, end), (body, stop) in zip(sentences(text), parts):
        assert text[start:end] == (body + stop).rstrip()  # its stop kept, the space after it not
        # every offset inside a sentence reads back to where it starts (past the space after the stop
        # before it): "$1,145.50" is no boundary
        for at in range(start, end):
            back = sentence_start(text, at)
            assert back <= start and not text[back:start].strip(), (text, at, back)


def test_a_sentence_start_is_read_back_no_further_than_its_reach():
    text = "a" * 50 + ". " + "b" * 500
    assert sentence_start(text, 552) == 51 and sentence_start(text, 552, reach=100) == 452


def test_the_first_statement_and_what_an_opening_announces():
    assert first_sentence("  Yes: it rose. Then it fell.") == (2, 5)
    text = "Here are the key points: revenue rose. Costs fell."
    assert [text[a:b] for a, b in opening_statements(text)] == ["Here are the key points", "revenue rose"]
    greeted = "Sure! It rose. More."
    assert [greeted[a:b] for a, b in opening_statements(greeted)] == ["It rose"]


def test_a_question_asks_in_its_first_sentence():
    assert asking_sentence("What was revenue in 2022? Answer in USD millions.") == "What was revenue in 2022?"
    assert asking_sentence("What was the 3.5% note's coupon?") == "What was the 3.5% note's coupon?"
