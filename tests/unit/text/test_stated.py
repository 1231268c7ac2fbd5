"""How an answer says a none: there is none counts in its opening only, the others anywhere; with nothing
said (the reading off) nothing is found. The words are the rules' (grading/readings/stated.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.text.needle_kinds import MatchKind
from ragpipe.text.stated import NOTHING_SAID, opening_denies_any

filler = st.sampled_from(["The filing covers FY2022.", "Revenue rose 4%.", "See note 7."])


@given(filler, st.sampled_from(["There were no acquisitions.", "It has not made any acquisitions."]))
def test_a_none_counts_in_the_opening_only(rules, other, none):
    says = rules.stated.says
    assert says.found(MatchKind.ABSENCE, f"{none} {other}") is not None
    assert says.found(MatchKind.ABSENCE, f"{other} {none}") is None
    assert NOTHING_SAID.found(MatchKind.ABSENCE, none) is None


@given(filler, st.sampled_from(["Real growth was flat.", "The ratio was unchanged.", "It grew 0%."]))
def test_unchanged_counts_anywhere(rules, other, flat):
    assert rules.stated.says.found(MatchKind.UNCHANGED, f"{other} {flat}") is not None
    assert rules.stated.says.found(MatchKind.UNCHANGED, other) is None


def test_an_opening_that_denies_any_of_something():
    assert opening_denies_any("The filing does not mention any acquisitions. It covers FY2022.")
    assert not opening_denies_any("It covers FY2022. The filing does not mention any acquisitions.")
