"""A list: a gold list of names comes back item by item, whatever its separators; one name with "&" is no
list; a list's comma is never a thousands separator."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.text.lists import LIST_COMMA, key_items, names_listed

names = st.sampled_from(["Orlin", "Trask", "Bellamy", "Gaudet", "Dana Ortiz", "J. R. R. Tolkien"])


@given(st.lists(names, min_size=2, max_size=5, unique=True), st.sampled_from([", ", ",", " and "]), st.booleans())
def test_a_gold_list_of_names_comes_back_in_order(items, separator, oxford):
    last = (", and " if oxford else " and ") if separator != " and " else " and "
    gold = separator.join(items[:-1]) + last + items[-1] + "."
    assert names_listed(gold) == tuple(items), gold


def test_what_is_not_a_list_of_names():
    assert names_listed("Procter & Gamble") == ()  # one name
    assert names_listed("fuel costs and wages") == ()  # no names
    assert names_listed("Orlin") == ()  # one item


@given(st.lists(st.integers(1_000, 999_999), min_size=2, max_size=4))
def test_a_lists_comma_is_no_thousands_separator(amounts):
    text = ", ".join(f"${a:,}" for a in amounts)
    parts = LIST_COMMA.split(text)
    assert parts == [f"${a:,}" for a in amounts]


def test_an_authored_keys_items():
    assert key_items("Paris, Lyon and Nice") == ["Paris", "Lyon", "Nice"]
    assert key_items("salt & pepper") == ["salt", "pepper"]
