"""Every grade carries a confidence, the evidence that moved it, and a firmness by the bound; a money
violation keeps the rules' firmness whatever the bound, and a verdict never moves with either."""

from __future__ import annotations

import pytest

from ragpipe.corpus.questions import Question
from ragpipe.grading.confidence import firm_threshold, model
from ragpipe.grading.grader import grade

WHO = Question(
    id="q-who",
    text="Who won the 2019 race?",
    kind="answerable",
    gold_answer="Dana Ortiz",
    must_contain_any=["Dana Ortiz"],
)
FEE = Question(
    id="q-fee", text="How much is the cleaning fee?", kind="answerable", gold_answer="$150", money_key="$150"
)
ANSWERS = [
    (WHO, "The 2019 race was won by Dana Ortiz."),
    (WHO, "It was won by Lee Park."),
    (WHO, "I could not find who won in the documents."),
    (FEE, "The cleaning fee is $150."),
    (FEE, "The cleaning fee is $175."),
]


@pytest.mark.parametrize(("question", "answer"), ANSWERS)
def test_firm_is_the_confidence_against_the_threshold(rules, question, answer):
    g = grade(question, answer, [], rules)
    assert 0.0 <= g.confidence <= 1.0
    assert 1 <= len(g.confidence_why) <= 3 and all(w.rsplit(" ", 1)[1][0] in "+-" for w in g.confidence_why)
    if not g.rule.startswith("money."):
        assert g.firm == (g.confidence >= firm_threshold(rules.trust))
    assert grade(question, answer, [], rules) == g  # the same inputs, the same confidence


def test_a_wrong_money_figure_stays_firm_where_nothing_else_is(rules):
    strict = rules.model_copy(update={"trust": rules.trust.model_copy(update={"alpha": 0.0001})})
    assert firm_threshold(strict.trust) > 1.0  # no threshold shows a 0.01% bound on these labels
    wrong = grade(FEE, "The cleaning fee is $175.", [], strict)
    assert (wrong.verdict, wrong.rule, wrong.firm, wrong.exact) == (
        "wrong",
        "money.asked_measure_other_figure",
        True,
        True,
    )
    right = grade(WHO, "The 2019 race was won by Dana Ortiz.", [], strict)
    assert (right.verdict, right.exact, right.firm) == ("correct", True, False)


def test_the_bound_moves_firmness_never_a_verdict(rules):
    loose = rules.model_copy(update={"trust": rules.trust.model_copy(update={"alpha": 0.2})})
    for question, answer in ANSWERS:
        a, b = grade(question, answer, [], rules), grade(question, answer, [], loose)
        assert (a.verdict, a.rule, a.declined, a.confidence) == (b.verdict, b.rule, b.declined, b.confidence)
    assert firm_threshold(loose.trust) <= firm_threshold(rules.trust)


def test_the_shipped_model_says_what_it_was_fitted_on():
    m = model()
    assert {s.name for s in m.sets} == set(m.calibration) and all(s.answers > 0 for s in m.sets)
    assert sum(n for rows in m.calibration.values() for _, n, _ in rows) == sum(s.answers for s in m.sets)
    bound = m.bound(0.01, 0.1)
    assert bound.threshold <= 1.0 and bound.labels == sum(s.answers for s in m.sets)
