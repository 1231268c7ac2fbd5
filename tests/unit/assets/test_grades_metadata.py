"""The grades asset's metadata counts each system apart: the pair's totals mix its answer sets."""

import pandas as pd

from assets.grading.grades import by_answer_set, judge_dropped


def test_verdicts_are_counted_per_answer_set():
    frame = pd.DataFrame(
        {"answer_set": ["b", "a", "a", "b", "a"], "verdict": ["wrong", "correct", "correct", "correct", "ungradable"]}
    )
    table = by_answer_set(frame).value.splitlines()
    assert table[2:] == ["| a | 2 | 0 | 0 | 1 |", "| b | 1 | 0 | 1 | 0 |"]


def test_a_judge_lost_between_two_gradings_is_said():
    before = pd.DataFrame({"grader_version": ["g-1+j-2"]})
    said = judge_dropped(before, "g-1")["judge_dropped"]
    assert said.startswith("graded before with a judge (g-1+j-2), now by the rules alone (g-1)")
    assert judge_dropped(before, "g-1+j-2") == {} and judge_dropped(before.assign(grader_version="g-0"), "g-1") == {}
