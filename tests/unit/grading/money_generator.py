"""A seeded generator of money answers whose truth is known by construction.

Each case is a question about one measure of a household document (a water bill, a lease, a pay stub, a
tax form, an insurance policy, a card statement, a rental listing), its gold (the key, alone or in a
sentence), and an answer built from one sentence shape that binds a money figure to the asked measure,
with or without a distractor: another measure of the same document stated as another amount, or as the
key's very value. The case knows whether the answer asserts the key for what was asked (`correct`),
another amount (`wrong`), no amount (`unstated`: the key denied), or the key and another amount bound to
nothing (`unsure`: a reader's call, never firm), and which shape it used: the property tests in test_money_generated.py grade
thousands and count them by shape.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path


@dataclass(frozen=True)
class Measure:
    question: str  # the question that asks it
    heads: tuple[str, ...]  # how an answer names it (each holds every word the question asks)
    period: str | None = None  # the period the question asks it per
    verb: str | None = None  # a verb that is the measure ("they owe $X")


@dataclass(frozen=True)
class Document:
    kind: str
    measures: tuple[Measure, ...]
    others: tuple[str, ...]  # other measures of the document: a distractor's heads


DOCUMENTS = (
    Document(
        "water bill",
        (Measure("What is the balance due on the water bill?", ("balance due", "current balance due")),),
        ("last month's charges", "previous balance", "late fee", "sewer charge"),
    ),
    Document(
        "lease",
        (
            Measure("What is the monthly rent for the unit?", ("rent", "monthly rent", "base rent"), period="month"),
            Measure("What is the weekly rent for the cabin?", ("rent", "weekly rent"), period="week"),
            Measure("How much is the security deposit?", ("security deposit",)),
            Measure("How much did the tenant pay?", ("amount the tenant paid",), verb="paid"),
        ),
        ("pet deposit", "cleaning fee", "parking charge", "application fee"),
    ),
    Document(
        "pay stub",
        (
            Measure("What was the net pay for the period?", ("net pay", "take-home net pay")),
            Measure("What was the gross pay for the period?", ("gross pay",)),
        ),
        ("federal withholding", "retirement contribution", "health premium"),
    ),
    Document(
        "tax form",
        (
            Measure("What refund is the taxpayer due?", ("refund due", "refund")),
            Measure("How much do they owe?", ("amount they owe",), verb="owe"),
        ),
        ("total payments", "estimated tax payments", "standard deduction"),
    ),
    Document(
        "insurance policy",
        (
            Measure("What is the annual premium on the policy?", ("premium", "annual premium"), period="year"),
            Measure("How much is the deductible?", ("deductible",)),
            Measure("How much does the policyholder owe?", ("amount the policyholder owes",), verb="owes"),
        ),
        ("coverage limit", "copay", "monthly installment"),
    ),
    Document(
        "card statement",
        (
            Measure("What total did the March statement show?", ("total", "statement's total")),
            Measure("What is the minimum payment due?", ("minimum payment due",)),
        ),
        ("new charges", "payments received", "interest charged"),
    ),
    Document(
        "rental listing",
        (Measure("How much is the cleaning fee?", ("cleaning fee",)),),
        ("nightly rate", "service fee", "damage deposit"),
    ),
)

PERIOD_AFTER = {"month": ("a month", "per month", "monthly"), "week": ("a week", "per week", "weekly"),
                "year": ("a year", "per year", "annually")}  # fmt: skip
PERIOD_WORDS = frozenset({"monthly", "weekly", "annual"})
OTHER_PERIOD = {"month": "week", "week": "month", "year": "month"}

# a sentence that states `head` as `value` (`{H}`: the head, `{V}`: the value, `{P}`: its period, if any)
BINDINGS = {
    "copula": "The {H} is {V}{P}.",
    "copula_past": "The {H} was {V}{P}.",
    "label": "{Hc}: {V}{P}.",
    "comes_to": "The {H} comes to {V}{P}.",
    "amounts_to": "The {H} amounts to {V}{P}.",
    "of": "That is {V} of {H}{P}.",
    "hedged": "The {H} is about {V}{P}.",
    "attributive": "The bill shows a {V} {H}{P}.",
}
DISTRACTOR = "the {H} is {V}"


@dataclass(frozen=True)
class Case:
    question: str
    gold: str
    answer: str
    truth: str  # "correct": the key asserted for what was asked; "wrong": another amount; "unstated": none
    shape: str
    document: str


def _amount(rng: random.Random) -> Decimal:
    whole = rng.choice([rng.randint(20, 999), rng.randint(1000, 9999), rng.randint(10_000, 99_999)])
    return Decimal(whole) if rng.random() < 0.5 else Decimal(whole) + Decimal(rng.randint(1, 99)) / 100


def money(value: Decimal, symbol: str = "$") -> str:
    return f"{symbol}{value:,.2f}" if value != value.to_integral() else f"{symbol}{int(value):,}"


def _distinct(rng: random.Random, n: int) -> list[Decimal]:
    found: list[Decimal] = []
    while len(found) < n:
        value = _amount(rng)
        if all(abs(value - f) >= 1 for f in found):  # apart at any precision a key is written at
            found.append(value)
    return found


def _state(shape: str, head: str, value: str, period: str) -> str:
    return BINDINGS[shape].format(H=head, Hc=head[0].upper() + head[1:], V=value, P=period)


def case(seed: int) -> Case:
    """One answer, its truth known by construction."""
    rng = random.Random(seed)
    document = rng.choice(DOCUMENTS)
    measure = rng.choice(document.measures)
    key, wrong, other = _distinct(rng, 3)
    shape = rng.choice(sorted(BINDINGS))
    if measure.verb and shape in ("of", "attributive"):  # "$X of amount the tenant paid": no one writes it
        shape = "copula"
    period = f" {rng.choice(PERIOD_AFTER[measure.period])}" if measure.period and rng.random() < 0.5 else ""
    # a head that names a period ("weekly rent") is not given a period after its figure too
    head = rng.choice(
        [h for h in measure.heads if not (period or plan_period(measure)) or h.split()[0] not in PERIOD_WORDS]
    )
    gold = money(key) if rng.random() < 0.5 else f"The {measure.heads[0]} is {money(key)}."
    distractor_head = rng.choice(document.others)
    plan = rng.choice(
        ["key", "wrong", "key+other", "wrong+key_as_other", "wrong+other", "concessive_wrong", "concessive_key",
         "corrected_to_key", "corrected_to_wrong", "denied_key", "denied_key_alone", "denied_wrong", "currency",
         "period", "verb_key",
         "verb_wrong", "calculation_key", "calculation_wrong", "unbound"]
    )  # fmt: skip
    if plan in ("verb_key", "verb_wrong") and measure.verb is None:
        plan = plan.replace("verb_", "")
    if plan == "period" and measure.period is None:
        plan = "currency"

    def said(value: Decimal, symbol: str = "$", at: str = period, how: str = shape) -> str:
        return _state(how, head, money(value, symbol), at)

    first = rng.random() < 0.5  # the distractor first or last
    other_clause = DISTRACTOR.format(H=distractor_head, V=money(other))
    key_as_other = DISTRACTOR.format(H=distractor_head, V=money(key))
    truth = "wrong"
    if plan == "key":
        answer, truth = said(key), "correct"
    elif plan == "wrong":
        answer = said(wrong)
    elif plan == "key+other":
        answer, truth = _both(said(key), other_clause, first), "correct"
    elif plan == "wrong+key_as_other":
        answer = _both(said(wrong), key_as_other, first)
    elif plan == "wrong+other":
        answer = _both(said(wrong), other_clause, first)
    elif plan == "concessive_wrong":  # the key conceded, another amount asserted
        answer = f"While {key_as_other}, the {head} is {money(wrong)}{period}."
    elif plan == "concessive_key":
        answer, truth = f"While {other_clause}, the {head} is {money(key)}{period}.", "correct"
    elif plan == "corrected_to_key":
        fix = rng.choice([", sorry, ", " \u2014 actually no, ", ", I mean ", "; correction: "])
        answer, truth = f"The {head} is {money(wrong)}{fix}{money(key)}{period}.", "correct"
    elif plan == "corrected_to_wrong":
        fix = rng.choice([", sorry, ", " \u2014 actually no, ", ", I mean ", "; correction: "])
        answer = f"The {head} is {money(key)}{fix}{money(wrong)}{period}."
    elif plan == "denied_key":
        answer = rng.choice(
            [f"The {head} is not {money(key)}; the {head} is {money(wrong)}{period}.",
             f"The {head} is not {money(key)} but {money(wrong)}{period}."]
        )  # fmt: skip
    elif plan == "denied_key_alone":  # the key denied, nothing asserted in its place: no amount is stated
        deny = rng.choice(["is not", "isn't", "is never", "was not"])
        answer, truth = f"The {head} {deny} {money(key)}{period}.", "unstated"
    elif plan == "denied_wrong":
        answer, truth = f"The {head} is not {money(wrong)}; the {head} is {money(key)}{period}.", "correct"
    elif plan == "currency":
        answer = said(key, rng.choice(["\u20ac", "\u00a3", "EUR "]))
    elif plan == "period":
        answer = said(key, at=f" {rng.choice(PERIOD_AFTER[OTHER_PERIOD[measure.period]])}")
    elif plan in ("verb_key", "verb_wrong"):
        value = key if plan == "verb_key" else wrong
        answer = f"They {measure.verb} {money(value)}."
        answer = _both(answer, other_clause, first) if rng.random() < 0.5 else answer
        truth = "correct" if plan == "verb_key" else "wrong"
    elif plan == "unbound":  # the key and another amount, neither stated for anything: a reader's call
        a, b = (money(key), money(other)) if first else (money(other), money(key))
        answer, truth = rng.choice(UNBOUND).format(A=a, B=b, D=document.kind), "unsure"
    else:  # a written calculation ending on its result: two positive parts that add up to it
        result = key if plan == "calculation_key" else wrong
        part = (result * Decimal(rng.randint(20, 80)) / 100).quantize(Decimal("0.01"))
        answer = f"The {head} is {money(part)} + {money(result - part)} = {money(result)}{period}."
        truth = "correct" if plan == "calculation_key" else "wrong"
    return Case(measure.question, gold, answer, truth, plan if plan not in ("key", "wrong") else f"{plan}:{shape}",
                document.kind)  # fmt: skip


# two amounts the answer binds to no measure (`{D}`: the document's kind)
UNBOUND = ("The {D} shows {A} and {B}.", "I found {A} and {B} on the {D}.", "{A}; {B}.",
           "There are two amounts on the {D}: {A} and {B}.", "It could be {A} or {B}.")  # fmt: skip


def plan_period(measure: Measure) -> bool:
    """Whether a period may be written after the figure: the measure has one."""
    return measure.period is not None


def _both(stated: str, other: str, other_first: bool) -> str:
    if other_first:
        return f"{other[0].upper() + other[1:]}; {stated[0].lower() + stated[1:]}"
    return f"{stated[:-1]}, and {other}."


SWEEP = 4000  # the seeds the sweep grades, counted by shape in docs/grader.md
DOC = Path(__file__).resolve().parents[3] / "docs" / "grader.md"
MARKERS = ("<!-- money-generator-counts -->", "<!-- /money-generator-counts -->")


def counts_table(seeds: int = SWEEP) -> str:
    """The sweep's cases by shape and truth, as the Markdown table docs/grader.md holds."""
    counts = Counter((case(s).shape.split(":")[0], case(s).truth) for s in range(seeds))
    rows = [f"| {shape} | {truth} | {n} |" for (shape, truth), n in sorted(counts.items())]
    return "\n".join(["| shape | truth | answers |", "|---|---|---|", *rows])


def doc_table() -> str:
    text = DOC.read_text()
    return text[text.index(MARKERS[0]) + len(MARKERS[0]) : text.index(MARKERS[1])].strip()


if __name__ == "__main__":  # python -m tests.unit.grading.money_generator --write: the table into docs/grader.md
    import sys

    table = counts_table()
    if "--write" in sys.argv:
        text = DOC.read_text()
        start, end = text.index(MARKERS[0]) + len(MARKERS[0]), text.index(MARKERS[1])
        DOC.write_text(text[:start] + "\n" + table + "\n" + text[end:])
    print(table)
