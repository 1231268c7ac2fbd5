"""The citation check: an answer that cites documents, none of them golden, is partial; citing nothing, or
a golden document, is not penalised."""

import pytest

from tests.unit.grading.checks.cases import graded

LEASE = {"text": "What is the pet deposit?", "gold_answer": "$300", "golden_docs": ["lease"]}

CASES = [
    (("lease",), "correct"),
    ((), "correct"),
    (("bill",), "partial"),
    (("bill", "lease"), "correct"),
]


@pytest.mark.parametrize(("citations", "verdict"), CASES)
def test_the_citation_check_on_each_case(citations, verdict):
    g = graded(LEASE, "The pet deposit is $300.", citations)
    assert g.verdict == verdict
    assert (g.rule == "citations.not_golden") == (verdict == "partial")
