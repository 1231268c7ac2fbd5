"""What each check and each reading earns: the agreement with people with that one switched off.

For each check of the grader (grading/checks/registry.py) and each reading that can be switched off
(grading/readings/: repair, voice, unasserted, measures, slot, reason, units), the labelled answers are graded again
with it off, and compared with the grades it is part of:
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
from ragpipe.grading.readings.registry import READINGS


def ablation(
    answers: pd.DataFrame, questions: pd.DataFrame, needles: pd.DataFrame, rules, baseline: pd.DataFrame
) -> list[dict]:
    """One row per check, then per reading: agreement with it off, and the answers it moves toward and away
    from people. `baseline` is the labelled frame graded with everything on, on the labels' scale. A
    reading's `fired` is None: it shapes what the checks see, and fires for no answer by itself."""
    base = agreement(baseline)
    rows = []
    units = [(c.id, "check", ",".join(c.sections) or None, c.summary) for c in CHECKS]
    units += [(r.id, "reading", ",".join((*r.sections, *r.reads)) or None, r.summary) for r in READINGS]
    for unit, what, sections, summary in units:
        grades = grade_answers(answers, questions, needles, rules, off=frozenset({unit}))
        # the scale is decided by the people's labels alone, so it is the baseline's
        frame, _ = on_the_labels_scale(labelled_frame(grades, answers, questions))
        off = agreement(frame)
        pair = baseline[["answer_id", "human", "grader", "checks"]].merge(
            frame[["answer_id", "grader"]], on="answer_id", suffixes=("", "_off")
        )
        changed = pair["grader"] != pair["grader_off"]
        fired = pair["checks"].str.split(",").map(lambda ids, c=unit: c in ids).sum() if what == "check" else None
        rows.append(
            {
                "check": unit,
                "what": what,
                "rules": sections,
                "summary": summary,
                "fired": None if fired is None else int(fired),
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
