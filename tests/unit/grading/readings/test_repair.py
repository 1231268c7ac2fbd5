"""The repair reading: mojibake is read as its author wrote it ("JosÃ©" is "José"); off, as it arrived.
Generated over names with accented letters damaged the way a wrong decoding damages them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.grading.readings.graded import graded, moved, question

NAMES = ["José Saramago", "Gabriel García Márquez", "Françoise Sagan", "Halldór Laxness", "Günter Grass"]


def test_a_damaged_name_is_met_only_once_repaired(rules):
    q = question("Who wrote Blindness?", "José Saramago", must_contain=["José Saramago"])
    on, off = moved(q, "JosÃ© Saramago wrote it.", rules, "repair")
    assert on[0] == "correct" and off[0] != "correct"


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(NAMES))
def test_a_name_damaged_by_a_latin_1_reading_is_met_repaired(rules, name):
    damaged = name.encode("utf-8").decode("latin-1")
    q = question("Who wrote it?", name, must_contain=[name])
    on, off = graded(q, f"{damaged} wrote it.", rules), graded(q, f"{damaged} wrote it.", rules, {"repair"})
    assert on.verdict == "correct" and off.verdict != "correct", damaged
