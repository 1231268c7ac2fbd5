"""A decline phrase that contains, lies inside or overlaps an exclusion word for word is said, with how."""

from __future__ import annotations

from ragpipe.text.clashes import exclusion_clashes


def test_each_way_a_phrase_meets_an_exclusion():
    found = exclusion_clashes(
        ["is not covered, not", "not covered", "covered, not", "cannot find", "NOT   Covered"],
        ["not covered"],
    )
    assert found == [
        ("is not covered, not", "contains", "not covered"),
        ("covered, not", "overlaps", "not covered"),
    ]  # the same words (in any case and spacing) are one phrase, said elsewhere
    assert exclusion_clashes(["covered"], ["not covered"]) == [("covered", "lies inside", "not covered")]
    assert exclusion_clashes(["10-K filing"], ["the 10-K"]) == [("10-K filing", "overlaps", "the 10-K")]
