"""ZERO-WRONG-MONEY, per system: which answer sets assert a wrong money figure, and which are held to it.

The bar is a property of one system's answers, so it blocks that answer set
alone: its scorecard is stored and marked `blocked`, and the pair's other
sets go on. Answer sets people labelled (a corpus's `imports`, every answer
carrying a person's verdict) calibrate the grader and are exempt. Exemption
is read from the answers themselves, never from a set's name: a name is
whatever a user typed.
"""

from __future__ import annotations

import pandas as pd

from ragpipe.grading.outcomes import WRONG_MONEY


def people_labelled(answers: pd.DataFrame) -> bool:
    """Whether these answers (of one set) are people-labelled imports: every one carries a label."""
    return bool(len(answers)) and "label" in answers and bool(answers["label"].notna().all())


def offending_answers(grades: pd.DataFrame, answers: pd.DataFrame) -> pd.DataFrame:
    """(answer_set, question_id, wrong_money) of every answer that fails the bar, exempt sets left out,
    in (answer set, question) order."""
    exempt = {s for s, group in answers.groupby("answer_set") if people_labelled(group)}
    bad = grades[(grades["failure"] == WRONG_MONEY) & ~grades["answer_set"].isin(exempt)]
    return bad.sort_values(["answer_set", "question_id"])[["answer_set", "question_id", "wrong_money"]]
