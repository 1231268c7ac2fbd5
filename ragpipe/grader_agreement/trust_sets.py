"""People's labels as the confidence model's training rows: one row per labelled verdict, with the
verdict's evidence (trust/evidence.py) and whether the person classed the answer as the verdict does.

Agreement is read on the scale people judge by: for a question that may be declined (negative,
ambiguous), declined or not; else correct or not (a decline and a wrong answer are both not correct).
"""

from __future__ import annotations

import json

import pandas as pd

from ragpipe.grader_agreement.agreement import CORRECT, REFUSAL, labelled_frame
from ragpipe.trust.evidence import Verdict, evidence_of
from ragpipe.trust.evidence import agrees as trust_agrees


def agrees(kind: str, human: str, grader: str) -> bool:
    """Whether the person classes the answer as the verdict does (`human`, `grader`: HUMAN_CLASSES)."""
    said = "declined" if grader == REFUSAL else "correct" if grader == CORRECT else "not_correct"
    return trust_agrees(kind, said, human == CORRECT, human == REFUSAL)


def evidence_rows(grades: pd.DataFrame, answers: pd.DataFrame, questions: pd.DataFrame, name: str) -> pd.DataFrame:
    """The labelled answers of one set with `set`, `features`, `agree` and the grade's `confidence`."""
    frame = labelled_frame(grades, answers, questions)
    text = dict(zip(answers["answer_id"], answers["answer"].fillna("")))
    golds = {
        q: (g or "", *(list(a) if a is not None else []))
        for q, g, a in zip(questions["question_id"], questions["gold_answer"], questions["must_contain_any"])
    }
    features = [
        evidence_of(
            Verdict(k, v, bool(d), r, bool(e), tuple(json.loads(m or "[]"))),
            golds[q],
            text[a],
        )
        for k, v, d, r, e, m, q, a in zip(
            frame["kind"],
            frame["verdict"],
            frame["declined"],
            frame["rule"],
            frame["exact"],
            frame["matched"],
            frame["question_id"],
            frame["answer_id"],
        )
    ]
    agree = [int(agrees(k, h, g)) for k, h, g in zip(frame["kind"], frame["human"], frame["grader"])]
    return pd.DataFrame(
        {
            "set": name,
            "answer_id": frame["answer_id"],
            "features": features,
            "agree": agree,
            "confidence": frame["confidence"].astype(float),
            "firm": frame["firm"].astype(bool),
            "exact": frame["exact"].astype(bool),
        }
    )
