"""The readings are found, named apart from the checks, own their rules sections, and change what the
checks see only when they are switched off: an answer none of them touches is graded alike without each."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragpipe.grading.checks.registry import CHECK_IDS
from ragpipe.grading.grader import grade
from ragpipe.grading.readings.registry import READING_IDS, READINGS, discover
from ragpipe.grading.readings.unit import Reading
from tests.unit.grading.readings.graded import question


def test_readings_and_checks_are_named_apart():
    assert not READING_IDS & set(CHECK_IDS) and len(READING_IDS) == len(READINGS)


def test_every_reading_module_declares_one_and_has_its_test_file():
    from pathlib import Path

    import ragpipe.grading.readings as package

    here = Path(__file__).parent
    assert {r.id for r in discover(package)} == READING_IDS
    assert all((here / f"test_{r.id}.py").is_file() for r in READINGS), "one test file per reading"


def test_the_rules_sections_a_reading_owns_are_in_the_rules(rules):
    for reading in READINGS:
        for name, model in reading.sections.items():
            assert isinstance(getattr(rules, name), model)


def test_a_reading_gives_a_value_and_its_absence_or_says_where_it_is_applied():
    with pytest.raises(TypeError, match="give read and absent"):
        Reading("half", "reads but has no absence", read=lambda view, rules: 1)
    with pytest.raises(TypeError, match="give read and absent"):
        Reading("nowhere", "neither reads nor is applied")


plain = st.text(alphabet=st.sampled_from("abcdefghij $0123456789.,"), min_size=1, max_size=40)


@settings(max_examples=300, deadline=None)
@given(plain, st.sampled_from(sorted(READING_IDS)))
def test_an_answer_none_of_them_touches_is_graded_alike_without_each(rules, answer, reading):
    """No quotes, no attribution words, no correction, no damaged encoding, no measure, name or unit:
    nothing for a reading to do."""
    q = question("What is the amount due?", "$150", money_key="$150")
    on, off = grade(q, answer, [], rules), grade(q, answer, [], rules, off=frozenset({reading}))
    assert (on.verdict, on.rule, on.firm) == (off.verdict, off.rule, off.firm)
