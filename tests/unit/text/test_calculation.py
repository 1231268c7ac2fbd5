"""A written calculation: its last figure is its result only where two earlier figures are joined by an
operator and their sum or difference is that figure at its precision. Generated over amounts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.text.calculation import concludes_calculation
from ragpipe.text.figures import find_figures

amounts = st.integers(100, 99_999)


@given(amounts, amounts, st.sampled_from(["less", "minus", "-", "plus", "+"]))
def test_an_operator_between_two_figures_that_make_the_last_concludes(a, b, operator):
    result = a - b if operator in ("less", "minus", "-") else a + b
    text = f"Income of ${a:,} {operator} ${b:,}: the balance is ${result:,}."
    assert concludes_calculation(text, find_figures(text)), text


@given(amounts, amounts)
def test_the_same_arithmetic_without_an_operator_concludes_nothing(a, b):
    text = f"They owe ${a - b:,}. Total income was ${a:,} and tax withheld ${b:,}."
    assert not concludes_calculation(text, find_figures(text))


@given(amounts, amounts, st.integers(1, 50))
def test_a_last_figure_off_by_more_than_its_precision_is_no_result(a, b, off):
    text = f"${a:,} less ${b:,} leaves ${a - b + off:,}."
    assert not concludes_calculation(text, find_figures(text))
