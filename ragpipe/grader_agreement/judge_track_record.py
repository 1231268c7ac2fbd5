"""A judge's track record measured on a labelled set, and what holding its lost cells would do, out of fold.

The cells (judge/track_record.py) are counted on every labelled answer the judge decided. What the
record does is measured on answers it was not measured on: the questions fall in five folds (by a hash
of their id); each fold is graded with the cells the other four hold, so a cell is held by evidence
from other questions, never by the answers it is scored on.
"""

from __future__ import annotations

import hashlib

import pandas as pd

from ragpipe.grader_agreement.agreement import labelled_frame
from ragpipe.judge import UNPARSED, TrackCell, apply_judgments, held_cells

FOLDS = 5


def fold_of(question_id: str, folds: int = FOLDS) -> int:
    return int(hashlib.sha256(str(question_id).encode()).hexdigest(), 16) % folds


def track_cells(by_rules: pd.DataFrame, both: pd.DataFrame) -> list[TrackCell]:
    """The cells of the judged answers of two labelled frames (rules alone, rules and judge) row for row."""
    from ragpipe.grader_agreement.judge_agreement import moved_by_kind_rule

    judged = (both["judge_verdict"].notna() & (both["judge_verdict"] != UNPARSED)).to_numpy()
    if not judged.any():
        return []
    return [TrackCell(**row) for row in moved_by_kind_rule(by_rules, both, judged)]


def track_record_report(run, grades: pd.DataFrame, combined: pd.DataFrame, answers, questions, figures) -> dict:
    """The judge's cells on this set (`cells`, each with `overturns`), the cells they hold (`held`, as
    `--keep` takes them), and the figures (`figures`: a labelled frame's) of the grades with the judge held
    out of fold (`out_of_fold`) beside the judge as asked (`as_asked`: `combined`, the rules' `grades` with
    the judge applied as `run` applied it)."""
    judgments = pd.concat([f for f in (run.stored, run.new) if f is not None and len(f)], ignore_index=True)
    if judgments.empty:
        return {}

    def judged_with(keep) -> pd.DataFrame:
        applied = apply_judgments(grades, answers, questions, judgments, run.judge_on, keep, run.budget)
        return labelled_frame(applied, answers, questions)

    by_rules = labelled_frame(grades, answers, questions)
    both = labelled_frame(combined, answers, questions)
    cells = track_cells(by_rules, both)
    folds = [fold_of(q) for q in both["question_id"]]
    parts = []
    for f in range(FOLDS):
        train = [x != f for x in folds]
        held = held_cells(track_cells(by_rules[train].reset_index(drop=True), both[train].reset_index(drop=True)))
        graded = judged_with((*run.keep, *held))
        parts.append(graded[[x == f for x in folds]])
    oof = pd.concat(parts).sort_values(["answer_set", "question_id"], kind="stable").reset_index(drop=True)
    return {
        "cells": [{**c.model_dump(), "overturns": c.overturns} for c in cells],
        "held": [k.written() for k in held_cells(cells)],
        "folds": FOLDS,
        "as_asked": figures(both),
        "out_of_fold": figures(oof),
        "judged_out_of_fold": int((oof["judge_verdict"].notna() & (oof["judge_verdict"] != UNPARSED)).sum()),
    }
