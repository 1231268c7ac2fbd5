"""Where one answer's grading time goes: the steps every answer needs, against the whole grade.

Issue 39 asks for 20,000 answers/s in one process: 50 µs an answer, everything included. Some steps
cannot be skipped for any answer, whatever the rules say: the row is read, the decline phrases are
looked for (every answer may decline), the opening's stance is read (a decline may have no phrase), and
the figures are found (the money checks and the assertion reading start from them). This times each of
those alone over the same answers the throughput is measured on, in the same run, so their sum (the
floor) is set beside the whole grade and beside the budget: a floor near the budget says no tuning of
the checks after them can reach the target; only a cheaper way to do these steps themselves can.

Used by bench/regrade.py on its synthetic history.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import timed  # noqa: E402

from ragpipe.grading.checks.decline.decide import decline_spans  # noqa: E402
from ragpipe.grading.checks.decline.stance import objection  # noqa: E402
from ragpipe.grading.grade_table import _cycle_collector_paused  # noqa: E402
from ragpipe.grading.rules import Rules  # noqa: E402
from ragpipe.text.figures import find_figures  # noqa: E402
from ragpipe.text.words import folded  # noqa: E402
from ragpipe.warehouse.nulls import records  # noqa: E402

TARGET_PER_S = 20_000  # issue 39's target, in one process


def _seconds(step, items) -> float:
    """Seconds for `step` over `items`, the cyclic collector paused by the very context grading pauses it in."""
    gc.collect()  # what ran before leaves this step no collection to pay for
    with _cycle_collector_paused(), timed() as t:
        for item in items:
            step(*item)
    return t.seconds


def floor(history: pd.DataFrame, questions: pd.DataFrame, rules: Rules, grading_s: float) -> dict:
    """µs an answer for each unskippable step over `history`, their sum, the whole grade (`grading_s`
    for the same answers) and the budget the target leaves. Like the grader, the steps read each
    (question, answer) pair once, however often it repeats; every step is divided by all the answers."""
    asked = dict(zip(questions["question_id"], questions["text"]))
    rows: list = []
    read = _seconds(lambda: rows.extend(records(history.sort_values(["answer_set", "question_id"]))), [()])
    pairs = list(dict.fromkeys((r["answer"] or "", asked[r["question_id"]]) for r in rows))
    lowered = [(folded(a), q) for a, q in pairs]  # the stance reads the answer as decide() hands it over
    steps = {
        "read": read,
        "decline_phrases": _seconds(lambda a, q: decline_spans(a, rules), pairs),
        "stance": _seconds(lambda a, q: objection(a, q, rules), lowered),
        "figures": _seconds(lambda a, q: find_figures(a), pairs),
    }
    per = {k: 1e6 * s / len(rows) for k, s in steps.items()}
    whole = 1e6 * grading_s / len(rows)
    budget = 1e6 / TARGET_PER_S
    result = {f"floor_{k}_us": round(v, 1) for k, v in per.items()}
    result |= {
        "floor_us": round(sum(per.values()), 1),
        "grading_us": round(whole, 1),
        "budget_us": budget,
        "floor_share_of_grading": round(sum(per.values()) / whole, 3),
        "floor_share_of_budget": round(sum(per.values()) / budget, 3),
    }
    return result
