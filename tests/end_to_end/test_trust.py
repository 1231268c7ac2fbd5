"""Confidence and the firm bound as a user meets them: every grade line carries its confidence, `agreement`
reports risk and coverage (that the shipped model is what fitting the shared sets writes is in
tests/end_to_end/test_shared_pipeline.py, beside the ingested FinanceBench it grades)."""

from __future__ import annotations

import json

from tests.commands import invoke
from tests.conftest import ROOT

QUESTIONS = ROOT / "tests" / "data" / "adhoc-questions.jsonl"
ANSWERS = ROOT / "tests" / "data" / "adhoc-answers.jsonl"
LABELLED = ROOT / "docs" / "examples" / "labelled-answers.jsonl"


def test_every_grade_line_carries_its_confidence_and_what_moved_it():
    result = invoke("grade", "--questions", str(QUESTIONS), "--answers", str(ANSWERS), "--jsonl")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert rows
    for row in rows:
        assert 0.0 <= row["confidence"] <= 1.0 and isinstance(row["exact"], bool)
        assert 1 <= len(row["confidence_why"]) <= 3
        if not row["rule"].startswith("money."):  # a money violation keeps the rules' firmness
            assert row["firm"] == (row["confidence"] >= _threshold())


def _threshold() -> float:
    from ragpipe.grading.confidence import firm_threshold
    from ragpipe.grading.rules import load_rules

    return firm_threshold(load_rules().trust)


def test_agreement_reports_risk_coverage_calibration_and_the_bound():
    result = invoke("agreement", "--labels", str(LABELLED), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout[result.stdout.index("{") :])
    curve = report["risk_coverage"]
    assert curve["coverage"] == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0] and len(curve["risk"]) == 10
    assert 0 <= report["aurc"] <= 1 and 0 <= report["ece"] <= 1
    trust = report["trust"]
    assert (trust["alpha"], trust["delta"], trust["labels"]) == (0.01, 0.1, report["n"])
    assert trust["own_bound"] is None  # a handful of labels shows no bound at 1%
    shown = invoke("agreement", "--labels", str(LABELLED)).stdout
    assert "by the shipped calibration" in shown and "give no bound at alpha 1%" in shown
