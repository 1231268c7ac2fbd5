"""A name: one to four capitalized words; a firm's may hold "&"; a mined one keeps its small words."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.text.names import FIRM_NAME, MINED_NAME, NAME, NAME_WORD

capitalized = st.sampled_from(["Orlin", "J.", "O'Neil", "Smith-Jones", "Trask", "García", "R.R."])
lower = st.sampled_from(["costs", "and", "the", "wages"])


@given(st.lists(capitalized, min_size=1, max_size=6))
def test_a_name_is_one_to_four_capitalized_words(parts):
    assert all(NAME_WORD.fullmatch(p) for p in parts)
    assert (NAME.fullmatch(" ".join(parts)) is not None) is (len(parts) <= 4)


@given(st.lists(capitalized, min_size=1, max_size=3), lower)
def test_a_lower_case_word_is_no_part_of_a_name(parts, word):
    assert NAME.fullmatch(" ".join([*parts, word])) is None and NAME_WORD.fullmatch(word) is None


def test_a_firm_may_hold_an_ampersand_and_a_mined_name_its_small_words():
    assert FIRM_NAME.fullmatch("Procter & Gamble") and FIRM_NAME.fullmatch("AT&T")
    assert NAME.fullmatch("Procter & Gamble") is None
    found = [m.group(0) for m in MINED_NAME.finditer("It was Bank of America, then Leonardo da Vinci.")]
    assert found == ["It", "Bank of America", "Leonardo da Vinci"]
    assert [m.group(0) for m in MINED_NAME.finditer("the A.I. team")] == ["A.I"]  # its last stop is the sentence's
