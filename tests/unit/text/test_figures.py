"""Figures are whole tokens compared by value and scale."""

from decimal import Decimal

import pytest

from ragpipe.text.figures import find_figures, parse_figure


@pytest.mark.parametrize(
    "key, text, expected",
    [
        ("$44,322", "You owe $44,322.", True),
        ("$44,322", "You owe $44,322.00.", True),
        ("$44,322", "You owe $450,658.", False),
        ("$42.99", "the balance is $43", False),
        ("$1,577 million", "revenue was $1.577 billion", True),
        ("$1,577.00", "(1,577)", False),  # an accounting negative is not the positive key
        ("-$10,020.00", "balance (10,020.00)", True),
        ("$20.00", "balance -$10,020.00", False),
        ("6.9%", "rate 6.9%", True),
        ("6.9%", "6.9 years", False),
        ("USD 8.7 billion", "$8,700 million", True),
    ],
)
def test_key_matches_by_value(key, text, expected):
    k = parse_figure(key)
    assert any(k.matches(f) for f in find_figures(text)) is expected


def test_no_substring_figures():
    texts = [f.text for f in find_figures("fee $20.00; balance -$10,020.00; code 8420")]
    assert texts == ["$20.00", "-$10,020.00", "8420"]


def test_spans_point_at_the_figure():
    text = "Ending balance: $42.99 [1]"
    (fig, one) = find_figures(text)
    assert text[fig.start : fig.end] == "$42.99" and fig.value == Decimal("42.99") and fig.is_money
    assert one.text == "1" and not one.is_money


def test_parse_figure_refuses_two_figures():
    with pytest.raises(ValueError, match="exactly one figure"):
        parse_figure("$1 and $2")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Ohio is the 34th-largest state", [("34", 34)]),  # an ordinal is its number
        ("rank 3rd.", [("3", 3)]),
        ("held in 1930\u00b2 in Uruguay", [("1930", 1930)]),  # a superscript footnote marker is not a digit of it
        ("the 10-K says", []),  # a hyphenated name is no figure
        ("v2nd5", []),  # nor letters and digits run together
    ],
)
def test_ordinals_and_footnote_markers(text, found):
    assert [(f.text, int(f.value)) for f in find_figures(text)] == found
