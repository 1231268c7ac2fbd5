"""What the grader reads a question as asking, read once per question and rules, and stored.

What a question asks (the measure asked, the slot a which-question opens, whether it asks why, for a
figure, for several things, its money key) is read here, all of it, once per question under one set of
rules, as a `QuestionReading`: the view carries it (`view.asked`), the checks and readings read it, and the
rule verdicts' stage stores it beside them (`question_readings`, one row a question: `columns()`), so the
review report and `ragpipe sql` show what the grader thought was asked. It depends on the rules (the
qualifiers that tell measures apart, the verbs that open a slot, how a question asks why, the patterns of
a figure or money question), never on an answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import pandas as pd

from ragpipe.corpus.needle_mining import offered_options
from ragpipe.corpus.questions import Question, question_from_row
from ragpipe.grading.sections import AnyRules
from ragpipe.text.asking import asks_for_figure, asks_for_several
from ragpipe.text.figures import question_scale
from ragpipe.text.gold_clause import asks_why
from ragpipe.text.measures import asked_measure
from ragpipe.text.money import is_money_question, key_of, money_key_value
from ragpipe.text.money_statement import Asked, asked_money_measure
from ragpipe.text.slot import asked_slot
from ragpipe.warehouse.nulls import records

# the `question_readings` table's columns after question_id, as `QuestionReading.columns()` writes them
COLUMNS = (
    "kind", "measure", "qualifiers", "slot", "choice", "several", "why", "figure_wanted", "money_question",
    "money_key", "precision", "money_measure", "money_period", "unit", "polarity",
)  # fmt: skip


@dataclass(frozen=True)
class QuestionReading:
    """What the question asks, as the grader reads it under its rules."""

    kind: str
    measure: frozenset[str]  # the asked measure's words, stemmed (text/measures.py)
    qualifiers: frozenset[str]  # of them, those that tell one measure from another (rules.yaml `measures`)
    slot: tuple[str, frozenset[str]] | None  # a which/who question's verb and predicate words (text/slot.py)
    choice: tuple[str, ...]  # the options a choice question offers
    several: bool  # asks for several things at once ("Which three suppliers ...")
    why: bool  # asks for a reason (rules.yaml `reason`)
    figure_wanted: bool  # asks for a number (rules.yaml `needles.figure_question_patterns`)
    money_question: bool  # has a money key, or asks for money its gold gives (rules.yaml `money`)
    money_key: str | None  # authored, or the gold's one money figure where the question asks an amount
    precision: int | None  # the decimals the money key is read at, in the question's unit ($44,322: 0; $42.99: 2)
    money_measure: Asked | None  # the measure a money question asks, and its period (text/money_statement.py)
    scale: Decimal  # the unit the question declares its amounts in ("in USD millions": 1000000)
    polarity: str | None  # the gold's yes or no, for a yes/no question

    def columns(self) -> dict:
        """The reading as the `question_readings` table stores it: words sorted and joined, none as null."""
        return {
            "kind": self.kind,
            "measure": " ".join(sorted(self.measure)) or None,
            "qualifiers": " ".join(sorted(self.qualifiers)) or None,
            "slot": None if self.slot is None else f"{self.slot[0]}: {' '.join(sorted(self.slot[1]))}",
            "choice": " | ".join(self.choice) or None,
            "several": self.several,
            "why": self.why,
            "figure_wanted": self.figure_wanted,
            "money_question": self.money_question,
            "money_key": self.money_key,
            "precision": self.precision,
            "money_measure": None if self.money_measure is None else " ".join(sorted(self.money_measure.words)),
            "money_period": None if self.money_measure is None else self.money_measure.period,
            "unit": None if self.scale == 1 else str(self.scale),
            "polarity": self.polarity,
        }


def _precision(key: str, question: str) -> int:
    """The decimals `key` is compared at, counted in the question's unit ("$1.5" in USD millions: 1)."""
    value = money_key_value(key, question)
    return value.decimals + int(question_scale(question).log10())


def read_question(question: Question, rules: AnyRules) -> QuestionReading:
    """What `question` asks under `rules` (pure: the same question and rules, the same reading)."""
    text = question.text
    key = key_of(question.money_key, question.gold_answer, question.kind, text)
    measure = asked_measure(text)
    return QuestionReading(
        kind=question.kind,
        measure=measure,
        qualifiers=frozenset(w for _, w in rules.measures.judgement.qualifiers(measure)),
        slot=asked_slot(text, rules.slot.verbs),
        choice=tuple(offered_options(text)),
        several=asks_for_several(text),
        why=asks_why(text, rules.reason.why_questions),
        figure_wanted=asks_for_figure(text, tuple(p.pattern for p in rules.needles.figure_question_patterns)),
        money_question=is_money_question(
            text, question.kind, key, question.gold_answer, tuple(rules.money.question_patterns)
        ),
        money_key=key,
        precision=None if key is None else _precision(key, text),
        money_measure=asked_money_measure(text),
        scale=question_scale(text),
        polarity=question.polarity,
    )


def question_readings(questions: pd.DataFrame, graded: pd.DataFrame, rules: AnyRules) -> pd.DataFrame:
    """One row for each question as it was graded (`graded`: the rule verdicts' `question_id` and `kind`; a
    labelled answer may be graded as another kind than its question's): what the grader read it as asking,
    under `rules`, in the `question_readings` table's columns, in question order."""
    by_id = {row["question_id"]: question_from_row(row) for row in records(questions)}
    rows: list[dict] = []
    if graded.empty:
        return pd.DataFrame(rows, columns=["question_id", *COLUMNS]).astype(_TYPES).assign(rules_version=rules.version)
    pairs = graded[["question_id", "kind"]].drop_duplicates().sort_values(["question_id", "kind"])
    for question_id, kind in pairs.itertuples(index=False):
        question = by_id.get(question_id)
        if question is None:
            continue  # a verdict of a question since removed reads nothing here
        if question.kind != kind:
            question = question.model_copy(update={"kind": kind})
        rows.append({"question_id": question_id, **read_question(question, rules).columns()})
    frame = pd.DataFrame(rows, columns=["question_id", *COLUMNS]).astype(_TYPES)
    return frame.assign(rules_version=rules.version)


_FLAGS = ("several", "why", "figure_wanted", "money_question")
# the stored types, so a pair with no verdicts writes the table's schema as a pair with some would
_TYPES = {c: ("bool" if c in _FLAGS else "Int64" if c == "precision" else "object") for c in ("question_id", *COLUMNS)}
