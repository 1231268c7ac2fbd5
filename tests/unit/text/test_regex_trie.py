"""Many literal phrases as one regex: it matches each phrase exactly, whatever the characters in it, and
nothing that is no phrase. Generated phrase sets."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.text.regex_trie import any_word, trie_pattern

phrases = st.lists(st.text(alphabet="ab.*( ", min_size=1, max_size=6).filter(str.strip), min_size=1, max_size=8)


@given(phrases, st.text(alphabet="ab.*( ", max_size=6))
def test_the_trie_matches_exactly_the_phrases(given_phrases, other):
    pattern = re.compile(trie_pattern(given_phrases, space=" "))
    for phrase in given_phrases:
        assert pattern.fullmatch(phrase), phrase
    assert (pattern.fullmatch(other) is not None) is (other in given_phrases)


def test_a_word_is_matched_whole():
    words = any_word(("no", "not"))
    assert [m.group(0) for m in words.finditer("not now, no notes")] == ["not", "no"]
