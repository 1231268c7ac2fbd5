"""Words in double quotes are mentioned, not said: a decline phrase inside a title or a line of lyrics
refuses nothing (ragpipe/text/quotes.py)."""

from ragpipe.corpus.questions import Question
from ragpipe.grading.grader import grade
from ragpipe.text.quotes import quoted_spans


def q(text: str, gold: str) -> Question:
    return Question(id="q", text=text, kind="answerable", gold_answer=gold, must_contain_any=[gold])


def test_a_decline_phrase_in_a_quoted_title_or_lyric_refuses_nothing(rules):
    band = q("What was the name of Gary Puckett's backing group?", "The Union Gap")
    answer = "It was called The Union Gap. Their hits included \u201cWoman, Woman\u201d and \u201cDon't Give In to Him\u201d."
    assert grade(band, answer, [], rules).verdict == "correct"
    song = q("Which song has the line 'you can check out any time you like'?", "Hotel California")
    lyric = 'The lyrics "you can check out any time you like, but you can never leave" are from Hotel California.'
    assert grade(song, lyric, [], rules).verdict == "correct"


def test_the_answerer_s_own_words_beside_a_quote_still_decline(rules):
    song = q("Who had a number one hit in 1984 with 'Hello'?", "Lionel Richie")
    for refusal in (
        'I can\'t say who sang "Hello" in 1984.',
        "\"I'm sorry, but I can't help with that.\"",  # an answer wrapped whole in quotes says what it quotes
        "\u201cI don't know.\u201d",
    ):
        assert grade(song, refusal, [], rules).declined, refusal


def test_quoted_spans_cover_the_marks_and_nothing_when_all_is_quoted():
    text = 'a hit with "Hello" and \u201cRunning with the Night\u201d'
    assert [text[s:e] for s, e in quoted_spans(text)] == ['"Hello"', "\u201cRunning with the Night\u201d"]
    assert quoted_spans('"All of it."') == [] and quoted_spans("no quotes") == []
    # a stray mark (an inch mark) opens nothing, and a quote holds no sentence's end: the answer's own
    # sentences between two marks are never read as quoted
    stray = 'The TV is 55" wide. I can\'t find its price. The "Pro" model is wider.'
    assert [stray[s:e] for s, e in quoted_spans(stray)] == ['"Pro"']
    assert quoted_spans('She said "I don\'t know. Ask him." and left.') == []
