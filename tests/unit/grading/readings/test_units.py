"""The units reading: the gold's number in another unit of the same quantity is another amount; a unit of
another quantity, or none, is no contradiction. Generated over every family's units (text/units.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ragpipe.text.units import FAMILIES
from tests.unit.grading.readings.graded import graded, moved, question

SHORT = {family: [u for u in units if u.isalpha() and len(u) >= 2] for family, units in FAMILIES.items()}


def test_the_number_in_another_unit_is_wrong_and_met_without_the_reading(rules):
    q = question("How much electricity did the plant use in 2022?", "842 kWh.")
    on, off = moved(q, "The plant used 842 MWh in 2022.", rules, "units")
    assert on[0] == "wrong" and off == ("correct", "needles.mined.all")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(SHORT)), st.data(), st.integers(101, 9999))
def test_only_another_unit_of_the_same_quantity_contradicts(rules, family, data, number):
    gold_unit = data.draw(st.sampled_from(SHORT[family]))
    said = data.draw(st.sampled_from(SHORT[family] + ["widgets"]))
    q = question("How much did the plant use in 2022?", f"{number} {gold_unit}.")
    answer = f"The plant used {number} {said} in 2022."
    on, off = graded(q, answer, rules), graded(q, answer, rules, {"units"})
    assert off.verdict == "correct"
    contradicts = said != "widgets" and said != gold_unit
    assert (on.verdict == "correct") is not contradicts or _same_unit(gold_unit, said), (q.gold_answer, answer, on.rule)


def _same_unit(a: str, b: str) -> bool:
    """Two spellings of one unit ("lb", "lbs"; "feet", "ft") are no contradiction."""
    from ragpipe.text.figures import find_figures
    from ragpipe.text.units import unit_after

    def unit(u: str):
        text = f"7 {u}"
        return unit_after(text, find_figures(text)[0].end)

    return unit(a) == unit(b)
