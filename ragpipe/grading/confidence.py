"""A grade's confidence and its firmness: the shipped confidence model applied to the grade's evidence.

Firm means the confidence reaches the threshold the bound in rules.yaml (`trust:`) gives on the
model's calibration counts (trust/confidence.py). Two verdicts keep the rules' own firmness: an
engine error (nothing to weigh; grade_table.py) and a wrong money figure (a ZERO-WRONG-MONEY violation
is the rules' to call, and no confidence below the threshold may hide one from the money bar). A finding's
ceiling (`never_firm`: the money guard's key beside another amount, neither bound to what was asked) makes
a grade tentative whatever its confidence; it is not evidence the model weighs.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from ragpipe.corpus.questions import Question
from ragpipe.grading import outcomes
from ragpipe.grading.grade import Grade
from ragpipe.grading.sections import Trust
from ragpipe.trust.confidence import ConfidenceModel, load_model
from ragpipe.trust.evidence import Verdict as Evidence
from ragpipe.trust.evidence import evidence_of

MODEL_FILE = Path(__file__).with_name("confidence.json")


@lru_cache(maxsize=1)  # read once per process: every grade asks for it
def model() -> ConfidenceModel:
    return load_model(MODEL_FILE)


def golds(question: Question) -> tuple[str, ...]:
    """The gold answer and its accepted forms: what an answer's words are compared with."""
    return (question.gold_answer, *question.must_contain_any)


def firm_threshold(trust: Trust) -> float:
    return _threshold(trust.alpha, trust.delta)


@lru_cache(maxsize=16)  # chosen once per bound, asked for by every grade
def _threshold(alpha: float, delta: float) -> float:
    return model().bound(alpha, delta).threshold


def with_confidence(question: Question, answer: str, grade: Grade, trust: Trust) -> Grade:
    """`grade` with its confidence, the evidence that moved it, and firmness by the bound."""
    m = model()
    features = evidence_of(
        Evidence(question.kind, str(grade.verdict), grade.declined, grade.rule, grade.firm, grade.matched),
        golds(question),
        answer,
    )
    confidence = m.confidence(features)
    firm = confidence >= firm_threshold(trust)
    if grade.failure == outcomes.WRONG_MONEY:  # a money violation, of any question kind
        firm = grade.firm
    if grade.never_firm:  # a finding's ceiling, not weighed as evidence
        firm = False
    return replace(grade, exact=grade.firm, firm=firm, confidence=confidence, confidence_why=m.why(features))
