"""`tokens_among` finds what `tokenize` finds, restricted to the wanted tokens, for any text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ragpipe.text.tokenize import tokenize, tokens_among

WORDS = (
    "trying tried tries dying lying tying skies skis early only gently ugly happy happiness running ran "
    "revenue revenues grew growth owed owing paid pays payment payments balance balances the of a it's "
    "Dana Ortiz's Ortiz fees fee's 44,322 1,000.5 3. 2019 FY22 refund refunded refunds charges charged"
).split()


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=40), st.lists(st.sampled_from(WORDS), max_size=8))
def test_tokens_among_is_tokenize_restricted(answer_words, gold_words):
    text = " ".join(answer_words)
    wanted = frozenset(tokenize(" ".join(gold_words)))
    assert tokens_among(text, wanted) == set(tokenize(text)) & wanted


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200), st.text(max_size=40))
def test_any_text(text, gold):
    wanted = frozenset(tokenize(gold))
    assert tokens_among(text, wanted) == set(tokenize(text)) & wanted
