"""ZERO-WRONG-MONEY, shown by generation: thousands of money answers over household documents, each
knowing whether it asserts the key for what was asked (tests/unit/grading/money_generator.py), graded by
the real grader. No wrong amount is graded correct, none is tentative, no answer that asserts the key
for the asked measure is graded wrong, and one that states the key beside another amount and binds
neither to what was asked is never firm. The issue's rows are cases here, not the target."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragpipe.corpus.questions import Question
from ragpipe.grading.grader import grade
from ragpipe.grading.rules import load_rules
from ragpipe.text.money import key_of
from tests.unit.grading.money_generator import SWEEP, Case, case, counts_table, doc_table

RULES = load_rules()  # one object, not a fixture: hypothesis prints a failing case's arguments


def graded(c: Case, rules):
    q = Question(id="q", text=c.question, kind="answerable", gold_answer=c.gold)
    return grade(q, c.answer, [], rules)


def _holds(c: Case, g) -> str | None:
    """Why the grade breaks a property for `c`, or None."""
    if c.truth == "wrong" and g.verdict == "correct":
        return "a wrong amount graded correct"
    if c.truth == "wrong" and not (g.firm and g.rule.startswith("money.")):
        return f"a wrong amount not a firm money violation ({g.verdict}, {g.rule}, firm={g.firm})"
    if c.truth == "unstated" and g.verdict == "correct":
        return "a denied key graded correct: it states no amount"
    if c.truth == "unsure" and g.firm:
        return f"the key beside another amount, neither bound to what was asked, graded firm ({g.verdict}, {g.rule})"
    if c.truth == "correct" and g.verdict != "correct":
        return f"the key asserted for the asked measure graded {g.verdict} ({g.rule})"
    if not g.money_question:
        return "not read as a money question (its gold is one money figure)"
    return None


@settings(max_examples=1500, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_no_generated_money_answer_is_graded_against_its_truth(seed):
    c = case(seed)
    broken = _holds(c, graded(c, RULES))
    assert broken is None, f"{broken}\n{c}"


def test_a_sweep_of_every_shape_holds_and_is_counted(rules):
    counts: Counter = Counter()
    failures = []
    for seed in range(SWEEP):
        c = case(seed)
        counts[(c.shape.split(":")[0], c.truth)] += 1
        broken = _holds(c, graded(c, rules))
        if broken:
            failures.append((broken, c))
    assert not failures, f"{len(failures)} of {SWEEP}: " + "\n".join(f"{b}: {c}" for b, c in failures[:10])
    assert len({shape for shape, _ in counts}) >= 17 and min(counts.values()) >= 15, counts
    # docs/grader.md reports these counts: `python -m tests.unit.grading.money_generator --write`
    assert doc_table() == counts_table(), "docs/grader.md's generator counts are stale"


ISSUE_ROWS = [
    ("What is the balance due on the water bill?", "$61.20",
     "The balance due is $48.75; last month's charges were $61.20."),
    ("What is the weekly rent for the unit?", "$420", "Rent is $390 a week, and the pet deposit is $420."),
    ("What total did the March statement show?", "$311.08",
     "The statement's total comes to $347.90, which includes $311.08 of new charges."),
    ("What refund is the taxpayer due?", "$1,145", "While line 33 lists $1,145 of payments, the refund due is $845."),
    ("How much is the cleaning fee?", "$150", "The cleaning fee is $175."),
    ("What was the net pay for the period?", "$2,904.11",
     "Gross pay was $2,904.11; after withholding, net pay was $2,231.60."),
    ("How much do they owe?", "$44,322", "They do not owe $44,322; they owe $50,123."),
    ("How much do they owe?", "$44,322", "$44,322 \u2014 actually no, they owe $51,377."),
    ("How much do they owe?", "$44,322", "They owe \u20ac44,322."),
    ("What is the monthly rent?", "$2,150", "The rent is $2,150 per week."),
]  # fmt: skip


@pytest.mark.parametrize("money_key", [False, True])
@pytest.mark.parametrize("question, gold, answer", ISSUE_ROWS)
def test_the_issues_wrong_amounts_are_firm_money_violations_with_or_without_a_money_key(
    question, gold, answer, money_key, rules
):
    q = Question(id="q", text=question, kind="answerable", gold_answer=gold, money_key=gold if money_key else None)
    g = grade(q, answer, [], rules)
    assert g.money_question and g.verdict == "wrong" and g.firm and g.rule.startswith("money."), g


@pytest.mark.parametrize(
    "question, gold, answer",
    [
        ("What is the balance due on the water bill?", "$61.20",
         "The balance due is $61.20; last month's charges were $48.75."),
        ("What is the monthly rent?", "$1,850", "Rent is $1,850 a month."),
        ("What is the monthly rent?", "The monthly rent is $1,850.", "The monthly rent is $1,850."),
        ("How much do they owe?", "$44,322", "They do not owe $51,377; they owe $44,322."),
    ],
)  # fmt: skip
def test_the_key_stated_for_what_was_asked_is_correct(question, gold, answer, rules):
    g = grade(Question(id="q", text=question, kind="answerable", gold_answer=gold), answer, [], rules)
    assert g.money_question and g.verdict == "correct", g


@pytest.mark.parametrize(
    "question, gold",
    [
        ("Does Paypal have positive working capital based on FY2022 data?", "Yes. It has $1.6 billion of it."),
        ("Which segment had the lowest net revenue?", "Corporate. Its net revenue was -$473 million."),
        ("By how much did the credit line increase?", "$400,000,000 increase."),
        ("What were revenue and costs?", "$5 and $4."),
        ("How many units were sold for $5?", "12 units."),
    ],
)
def test_a_gold_that_supports_a_yes_a_name_or_a_change_with_an_amount_gives_no_money_key(question, gold):
    assert key_of(None, gold, "answerable", question) is None
    assert key_of("$5", gold, "answerable", question) == "$5"  # an authored key stays the key


@pytest.mark.parametrize(
    "answer",
    ["The amount due is not $150.", "The amount due isn't $150.", "The amount due was never $150.", "Not $150."],
)
def test_an_answer_that_only_denies_the_key_does_not_meet_it(answer, rules):
    """Found by switching the readings off one by one: a bare denial of the key was graded correct, firm."""
    for key in ("$150", None):
        q = Question(id="q", text="What is the amount due?", kind="answerable", gold_answer="$150", money_key=key)
        g = grade(q, answer, [], rules)
        assert g.verdict == "wrong" and not g.firm, (key, g)
