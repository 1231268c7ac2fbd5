"""A clause: where a measure's clause ends, what closes a figure's clause, and a clause's first word. The
separators are generated, their kind known: a comma or stop inside a figure is never one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.text.clauses import clause_close, clause_ends, clause_start, opens_clause

figures = st.sampled_from(["$9,454.50", "$1,145", "12.5%", "3.46", "2022"])


@given(figures, figures, st.sampled_from([", but ", "; ", ". ", ", which ", " compared with "]))
def test_a_clause_ends_between_two_figures_and_never_inside_one(a, b, joint):
    text = f"Rent was {a}{joint}fees were {b}"
    ends = clause_ends(text)
    inside = [e for e in ends if text.index(a) < e < text.index(a) + len(a)]
    assert inside == [], (text, ends)
    between = [e for e in ends if text.index(a) + len(a) <= e <= text.rindex(b)]
    assert between, (text, ends)
    at_b = text.rindex(b)
    assert text.index(a) + len(a) <= clause_start(at_b, ends) <= at_b


@given(figures, st.sampled_from([(",", ","), (";", ";"), (".", "."), ("\n", "\n"), ("", None)]))
def test_what_closes_a_figures_clause_is_the_mark_after_it_not_its_own_separators(figure, mark):
    written, closes = mark
    text = f"While line 33 lists {figure}{written} the refund due is $845"
    start = text.index(figure) + len(figure)
    assert clause_close(text, start, len(text)) == closes
    assert clause_close(figure, 0, len(figure)) is None  # "$9,454.50" closes nothing


def test_a_clause_first_word():
    text = "Rent is $390. Segment profit (Net sales: up) rose"
    assert opens_clause(text, 0) and opens_clause(text, text.index("Segment"))
    assert opens_clause(text, text.index("Net")) and opens_clause(text, text.index("up"))
    assert not opens_clause(text, text.index("profit")) and not opens_clause(text, text.index("rose"))
