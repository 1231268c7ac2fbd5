"""A grade's confidence and its firmness: the shipped confidence model applied to the grade's evidence.

Firm means the confidence reaches the threshold the bound in rules.yaml (`trust:`) gives on the
model's calibration counts (trust/confidence.py). Two verdicts keep the rules' own firmness: an
engine error (nothing to weigh; grade_table.py) and a wrong money figure (a ZERO-WRONG-MONEY violation
is the rules' to call, and no confidence below the threshold may hide one from the money bar).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ragpipe.corpus.questions import Question
from ragpipe.grading.grade import Grade, Verdict
from ragpipe.grading.sections import Trust
from ragpipe.trust.confidence import ConfidenceModel, load_model
from ragpipe.trust.evidence import Verdict as Evidence
from ragpipe.trust.evidence import evidence_of

MODEL_FILE = Path(__file__).with_name("confidence.json")
_MONEY = ("money.", "ambiguous.money.")


_LOADED: dict[str, ConfidenceModel] = {}  # the model, read once per process: asked for by every grade
_THRESHOLDS: dict[tuple[float, float], float] = {}


def model() -> ConfidenceModel:
    if "model" not in _LOADED:
        _LOADED["model"] = load_model(MODEL_FILE)
    return _LOADED["model"]


def golds(question: Question) -> tuple[str, ...]:
    """The gold answer and its accepted forms: what an answer's words are compared with."""
    return (question.gold_answer, *question.must_contain_any)


def firm_threshold(trust: Trust) -> float:
    key = (trust.alpha, trust.delta)
    if key not in _THRESHOLDS:
        _THRESHOLDS[key] = model().bound(*key).threshold
    return _THRESHOLDS[key]


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
    if grade.rule.startswith(_MONEY) and grade.verdict != Verdict.CORRECT:
        firm = grade.firm
    return replace(grade, exact=grade.firm, firm=firm, confidence=confidence, confidence_why=m.why(features))
