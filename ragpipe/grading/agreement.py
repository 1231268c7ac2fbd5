"""How far the grader agrees with people: confusion, accuracy, Cohen's kappa,
refusal precision/recall, and the costliest error, false "correct".

Verdicts map to the human classes: declined -> Refusal, correct -> Correct
Answer, anything else (partial, wrong, ungradable) -> Incorrect Answer: the
grader passes only what it can verify.
"""

from __future__ import annotations

from collections import Counter

import pandas as pd

from ragpipe.labels import HUMAN_CLASSES

CORRECT, INCORRECT, REFUSAL = HUMAN_CLASSES


def grader_class(verdict: str, declined: bool) -> str:
    if declined:
        return REFUSAL
    return CORRECT if verdict == "correct" else INCORRECT


def cohen_kappa(a: list[str], b: list[str], classes=HUMAN_CLASSES) -> float:
    """Agreement beyond chance between two raters over the same items."""
    n = len(a)
    if n == 0:
        return 0.0
    observed = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    expected = sum(ca[c] * cb[c] for c in classes) / (n * n)
    return 1.0 if expected == 1 else (observed - expected) / (1 - expected)


def _prf(human: pd.Series, grader: pd.Series, cls: str) -> dict:
    tp = int(((human == cls) & (grader == cls)).sum())
    fp = int(((human != cls) & (grader == cls)).sum())
    fn = int(((human == cls) & (grader != cls)).sum())
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0}


def agreement(frame: pd.DataFrame) -> dict:
    """Figures for rows with `human` and `grader` class columns (and `question_type`)."""
    human, grader = frame["human"], frame["grader"]
    confusion = {h: {g: int(((human == h) & (grader == g)).sum()) for g in HUMAN_CLASSES} for h in HUMAN_CLASSES}
    false_correct = (grader == CORRECT) & (human != CORRECT)
    numeric = frame.get("question_type", pd.Series(index=frame.index, dtype=object)) == "metrics-generated"
    return {
        "n": len(frame),
        "accuracy": round(float((human == grader).mean()), 4) if len(frame) else 0.0,
        "kappa": round(cohen_kappa(list(human), list(grader)), 4),
        "confusion": confusion,
        "refusal": _prf(human, grader, REFUSAL),
        "correct": _prf(human, grader, CORRECT),
        "false_correct": int(false_correct.sum()),
        "false_correct_numeric": int((false_correct & numeric).sum()),
    }


def agreement_report(frame: pd.DataFrame) -> dict:
    """Overall figures, then the same per question type and per labelled file."""
    report = agreement(frame)
    report["by_question_type"] = {t: agreement(g) for t, g in frame.groupby("question_type", sort=True)}
    report["by_file"] = {f: agreement(g) for f, g in frame.groupby("file", sort=True)}
    return report
