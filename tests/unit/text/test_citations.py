"""Citation markers are blanked with as many spaces, so every other offset holds and no digit of a marker
is read as a figure."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.text.citations import blank_citations
from ragpipe.text.figures import find_figures

MARKER = r"\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\]"
markers = st.lists(st.integers(1, 40), min_size=1, max_size=3).map(lambda ns: "[" + ", ".join(map(str, ns)) + "]")


@given(st.lists(st.tuples(st.sampled_from(["Rent is $390.", "It rose 4%.", "No change."]), markers), max_size=4))
def test_markers_are_blanked_in_place_and_read_as_no_figure(parts):
    answer = " ".join(f"{sentence} {marker}" for sentence, marker in parts)
    blanked = blank_citations(answer, MARKER)
    assert len(blanked) == len(answer) and "[" not in blanked
    kept = [f.text for f in find_figures(blanked)]
    assert kept == [f.text for f in find_figures(" ".join(s for s, _ in parts))]
