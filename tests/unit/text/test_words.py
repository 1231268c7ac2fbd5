"""The readers' primitives, each defined once: a word, a folded text, a year, a month, a question's
asking sentence."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.text.dates import MONTH_ABBREVIATIONS, MONTH_NAMES, MONTH_TOKENS, is_year, years
from ragpipe.text.figures import find_figures
from ragpipe.text.sentences import asking_sentence
from ragpipe.text.words import WORD, WORD_ALONE, folded, stemmer

texts = st.text(alphabet=st.sampled_from("aBc \u2019'-.,!?\nXyZ\u00e9\u0130"), max_size=60)


@given(texts)
def test_folding_keeps_every_offset_and_reads_a_curly_apostrophe_as_a_straight_one(text):
    out = folded(text)
    if len(text) == len(text.lower()):  # a few letters lower to two characters (U+0130): no such text is graded
        assert len(out) == len(text) and "\u2019" not in out
        for m in WORD.finditer(text):
            assert folded(m.group(0)) == out[m.start() : m.end()]


def test_a_word_as_written_and_one_standing_alone():
    assert WORD.findall("isn't year-over-year U.S.") == ["isn't", "year-over-year", "U", "S"]
    assert WORD_ALONE.findall("isn't year-over-year U.S.") == ["isn't", "year-over-year", "U"]
    assert WORD_ALONE.findall("x2y") == ["x"]  # "y" continues "x2": the tail of another word is no word


def test_one_stemmer_for_bm25_and_the_measures():
    assert stemmer() is stemmer() and stemmer().stemWord("revenues") == "revenu"


@given(st.integers(1900, 2100), st.sampled_from(["{y}", "FY{y}", "fy {y}", "FY'{yy}", "fy{yy}", "in fiscal {y},"]))
def test_a_year_however_written_is_its_two_digits(year, shape):
    text = f"Revenue {shape.format(y=year, yy=str(year)[-2:])} grew."
    assert years(text) == {str(year)[-2:]}


@given(st.integers(0, 3000))
def test_a_whole_number_is_a_year_from_1900_to_2100_as_text_and_as_a_figure(n):
    (figure,) = find_figures(f"in {n} we")
    assert figure.in_year_range == is_year(n) == (1900 <= n <= 2100)
    assert bool(years(f"in {n} we")) == (1900 <= n <= 2100 and len(str(n)) == 4)


def test_every_short_month_names_its_month_and_the_tokens_are_both():
    assert set(MONTH_ABBREVIATIONS.values()) == set(MONTH_NAMES) - {"may"}
    assert all(MONTH_NAMES.index(m) == MONTH_NAMES.index(MONTH_ABBREVIATIONS[m[:3]]) for m in MONTH_NAMES if m != "may")
    assert MONTH_TOKENS == set(MONTH_NAMES) | set(MONTH_ABBREVIATIONS)


def test_a_question_asks_in_its_first_sentence():
    assert asking_sentence("  What was revenue in FY22? Answer in millions.") == "What was revenue in FY22?"
    assert asking_sentence("What was the 3.5% note's coupon") == "What was the 3.5% note's coupon"
    assert asking_sentence("Using the cash flow statement. What is capex?") == "Using the cash flow statement."
