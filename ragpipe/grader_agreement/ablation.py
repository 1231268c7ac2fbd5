"""What each check earns: the agreement with people with that one check switched off.

For each check of the grader (grading/checks/registry.py), the labelled answers
are graded again with it off, and compared with the grades it is part of:
`earned` counts answers the check moves to the people's class, `cost` those it
moves away from it. A check that costs more than it earns is a candidate to
change; one that earns nothing on these labels is untested by them, not proven
useless.
"""

from __future__ import annotations

import pandas as pd

from ragpipe.grader_agreement.agreement import agreement, labelled_frame, on_the_labels_scale
from ragpipe.grading.checks.registry import CHECKS
from ragpipe.grading.grade_table import grade_answers


def ablation(
    answers: pd.DataFrame, questions: pd.DataFrame, needles: pd.DataFrame, rules, baseline: pd.DataFrame
) -> list[dict]:
    """One row per check: agreement with it off, and the answers it moves toward and away from people.
    `baseline` is the labelled frame graded with every check on, on the labels' scale."""
    base = agreement(baseline)
    rows = []
    for check in CHECKS:
        grades = grade_answers(answers, questions, needles, rules, off=frozenset({check.id}))
        # the scale is decided by the people's labels alone, so it is the baseline's
        frame, _ = on_the_labels_scale(labelled_frame(grades, answers, questions))
        off = agreement(frame)
        pair = baseline[["answer_id", "human", "grader", "checks"]].merge(
            frame[["answer_id", "grader"]], on="answer_id", suffixes=("", "_off")
        )
        changed = pair["grader"] != pair["grader_off"]
        rows.append(
            {
                "check": check.id,
                "rules": ",".join(check.sections) or None,
                "summary": check.summary,
                "fired": int(pair["checks"].str.split(",").map(lambda ids, c=check.id: c in ids).sum()),
                "changed": int(changed.sum()),
                "earned": int((changed & (pair["grader"] == pair["human"])).sum()),
                "cost": int((changed & (pair["grader_off"] == pair["human"])).sum()),
                "kappa_off": off["kappa"],
                "kappa_delta": round(base["kappa"] - off["kappa"], 4),
                "accuracy_off": off["accuracy"],
                "refusal_f1_off": off["refusal"]["f1"],
                "false_correct_off": off["false_correct"],
                "false_correct_numeric_off": off["false_correct_numeric"],
            }
        )
    return rows
