"""A judge's budget: at most a share of the answers, the least confident tentative ones first."""

from __future__ import annotations

import pandas as pd

from ragpipe.judge import judged_rules, recorded_identity
from ragpipe.judge.apply import eligible


def _grades(confidences, firm, money=()):
    n = len(confidences)
    return pd.DataFrame(
        {
            "answer_id": [f"a{i}" for i in range(n)],
            "kind": ["answerable"] * n,
            "rule": ["money.wrong_figure" if i in money else "needles.mined.none" for i in range(n)],
            "error": [None] * n,
            "failure": ["wrong money figure" if i in money else None for i in range(n)],
            "firm": firm,
            "confidence": confidences,
        }
    )


def test_the_budget_takes_the_least_confident_tentative_answers():
    grades = _grades([0.9, 0.2, 0.99, 0.5, 0.1, 0.3, 0.7, 0.95, 0.4, 0.6], [False] * 9 + [True])
    asked = eligible(grades, "tentative", budget=0.3)
    assert list(grades.loc[asked, "answer_id"]) == ["a1", "a4", "a5"]  # 0.2, 0.1, 0.3: three of ten
    assert int(eligible(grades, "tentative").sum()) == 9  # no budget: every tentative one
    # a firm answer is never asked about, however unsure; neither is a money violation
    grades = _grades([0.1, 0.2, 0.3, 0.4], [True, False, False, False], money={1})
    assert list(grades.loc[eligible(grades, "tentative", budget=1.0), "answer_id"]) == ["a2", "a3"]


def test_ties_keep_the_grades_order_and_old_rows_count_as_unsure():
    grades = _grades([0.5, 0.5, 0.5, 0.5], [False] * 4)
    assert list(grades.loc[eligible(grades, "tentative", budget=0.5), "answer_id"]) == ["a0", "a1"]
    old = grades.drop(columns="confidence")
    assert int(eligible(old, "tentative", budget=0.5).sum()) == 2


def test_the_budget_is_part_of_the_grader_version(rules):
    who = recorded_identity("gpt-4")
    plain, capped = judged_rules(rules, who), judged_rules(rules, who, (), 0.3)
    assert capped.version == plain.version + "+b-0.3" and "budget: 0.3" in capped.rules_text


def test_a_money_violation_of_an_ambiguous_question_is_never_the_judges_either():
    """ZERO-WRONG-MONEY is the rules', whatever the question's kind: the rule is then `ambiguous.money.*`."""
    grades = _grades([0.1, 0.2], [False, False], money={0}).assign(
        kind="ambiguous", rule=["ambiguous.money.asked_measure_other_figure", "ambiguous.needles.ungradable"]
    )
    for judge_on in ("tentative", "all"):
        assert list(grades.loc[eligible(grades, judge_on), "answer_id"]) == ["a1"]
