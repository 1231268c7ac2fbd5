"""Money keys: a gold's one money figure in its first sentence is its key; a question that asks what an
amount is takes it; an answer's figure matches the key at the key's precision, or in the question's unit."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.text.figures import parse_figure
from ragpipe.text.money import asks_an_amount, gold_money_key, key_of, matches_key, money_key_value

cents = st.integers(100, 999_999)


@given(cents)
def test_a_gold_of_one_amount_is_its_key_and_one_of_two_is_none(c):
    amount = f"${c / 100:,.2f}"
    assert gold_money_key(f"The deposit is {amount}.") == amount
    assert gold_money_key(f"{amount} and ${c:,}") is None  # two amounts: no key
    assert gold_money_key(f"Yes. The deposit is {amount}.") is None  # the amount supports a yes


@given(cents)
def test_a_question_that_asks_an_amount_takes_the_golds_key(c):
    amount = f"${c:,}"
    assert key_of(None, amount, "answerable", "What is the monthly rent?") == amount
    assert key_of(None, amount, "answerable", "By how much did rent increase?") is None
    assert key_of(None, amount, "negative", "What is the monthly rent?") is None
    assert key_of("$5", amount, "answerable", "Which unit?") == "$5"  # an authored key is the key
    assert asks_an_amount("How much is the cleaning fee?") and not asks_an_amount("Does it have cash?")


@given(st.integers(1, 99_999))
def test_an_answer_meets_the_key_at_its_precision_or_in_the_questions_unit(n):
    key = money_key_value(f"${n:,}", "What was capex (in USD millions)?")
    scale = Decimal(1_000_000)
    assert matches_key(key, parse_figure(f"${n:,}"), scale, Decimal(0))
    assert matches_key(key, parse_figure(f"${n:,}.4"), scale, Decimal(0))  # rounds to the key's whole units
    assert not matches_key(key, parse_figure(f"${n + 1:,}"), scale, Decimal(0))
