"""The money guard: on a money question, an answer that asserts a money figure other than the key for what
was asked is wrong, whatever else it says. A key buried among other figures is a dump of figures, not an
answer.

First, the answer's money statements (text/money_statement.py): each money figure read for the measure,
period and currency it is stated for and whether it is asserted, against the measure the question asks
and, in a corpus, the label the document gives the key ("Amount due"). The asked measure stated as
another amount, or the key only denied, withdrawn, conceded, in another currency or period, or stated as
an amount the page labels otherwise: wrong, firm. Where these decide nothing, the older readings follow
(text/measures.py: a key stated only as another measure by a qualifier, "declared $1.2 billion" when paid
was asked: tentative), then the figures the answer opens and ends on. An answer that states the key and
another amount and binds neither to the asked measure is not wrong, and never firm."""

from __future__ import annotations

import re
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from ragpipe.grading import outcomes
from ragpipe.grading.checks.view import AnswerView, Check, Finding
from ragpipe.grading.grade import Verdict
from ragpipe.text.measures import other_values
from ragpipe.text.money import asserted_money, matches_key
from ragpipe.text.money_statement import (
    Asked,
    Stated,
    currency_of,
    measure_words,
    period_in,
    read_statements,
    states,
)
from ragpipe.text.patterns import Regex


class Money(BaseModel):
    """rules.yaml `money`: the key's tolerance and the wording that makes a question a money question."""

    model_config = ConfigDict(extra="forbid")
    relative_tolerance: float = Field(0, ge=0, lt=1)
    question_patterns: list[Regex] = Field(default_factory=list)
    # a money statement whose clause holds one of these words (regexes, each a whole word) compares or
    # dates: its figure may be another period's, and states no value of the measure asked
    compares: tuple[Regex, ...] = Field(
        default_factory=lambda: (
            "compared", "comparison", "versus", "vs", "prior", "previous", "last", "preceding", "earlier", "before",
            "increased?", "decreased?", "rose", "fell", "grew", "declined", "changed?", "up", "down", "from",
            "year-over-year", "yoy", "respectively", "budget", "estimated?",
        )
    )  # fmt: skip

    @property
    def comparing(self) -> re.Pattern[str]:
        return _comparing(self.compares)


@lru_cache(maxsize=16)  # a property of the words, not cached on the model: a copy with other words reads its own
def _comparing(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(words) + r")\b" if words else "(?!)", re.IGNORECASE)


def run(view: AnswerView, rules) -> Finding | None:  # its `money` section is read by the view (key, tolerance)
    key, reading = view.key, view.measures

    def is_key(f) -> bool:
        return key is not None and matches_key(key, f, view.scale, view.tolerance)

    money = [f for f in view.figures if f.is_money]
    asked = view.asked.money_measure
    stated = _stated_for_asked(view, money, is_key, asked, rules.money.comparing)
    if stated is not None:
        return None if stated is KEY_STATED else stated
    others = [b.figure for b in other_values(reading, view.text, view.question.text, is_key) if b.figure.is_money]
    if others:
        return _wrong(view, money, others, outcomes.MONEY_OTHER_VALUE, is_key)
    asserted = [f for f in asserted_money(view.text, money) if is_key(f)]
    wrong = [f for f in money if not is_key(f)]
    if any(reading.other(f) is None for f in asserted):
        return UNBOUND if wrong and asked is not None else None  # the measure read, and bound to neither
    if not wrong:
        return None
    if asserted:  # where the key is asserted, it is stated as another measure: by a reading of its clause
        return _wrong(view, money, wrong, outcomes.MONEY_KEY_OTHER_MEASURE, is_key)
    # firm on an authored key: the author says this figure must be stated. A key read from a gold sentence
    # ("Total ... = $8,400,000,000") may be met in parts ("$4,200,000,000 under each of its two agreements")
    return _wrong(view, money, wrong, outcomes.MONEY_WRONG_FIGURE, is_key, firm=view.question.money_key is not None)


KEY_STATED = Finding("money_guard")  # the asked measure stated as the key: nothing more to read
# The key and another amount, and no statement binds either to the measure the question asks (read from
# its shape: a question whose measure is not read is not held to this): which one the answer
# asserts for it is a reader's call, so the verdict is never firm, whatever its confidence
UNBOUND = Finding("money_guard", never_firm=True)


def _stated_for_asked(view: AnswerView, money: list, is_key, asked: Asked | None, comparing) -> Finding | None:
    """The answer's money statements read against the asked measure (text/money_statement.py), firm either
    way: the asked measure stated as the key is KEY_STATED (no money violation); stated only as other
    amounts, it is wrong; the key denied, withdrawn, conceded, or in another currency or period while the
    answer asserts another amount, it is wrong. None: the statements decide nothing, the readings below go on."""
    if not money:
        return None
    statements = read_statements(view.text, money, comparing, view.whole, view.measures.ends)
    key_text = view.key_text or ""
    currency = currency_of(key_text, key_text[len(key_text.split()[0]) :] if key_text.split() else "") or "USD"
    period = (asked.period if asked else None) or period_in(view.question.gold_answer)

    def the_key(s: Stated) -> bool:
        return is_key(s.figure) and s.currency in (currency, "") and (period is None or s.period in (None, period))

    if asked is not None:
        for_asked = [s for s in statements if s.asserted and s.main and not s.compares and states(s, asked)]
        if any(the_key(s) for s in for_asked):
            return KEY_STATED
        if for_asked:
            return _wrong(view, money, [s.figure for s in for_asked], outcomes.MONEY_OTHER_VALUE, is_key, firm=True)
    placed = _stated_against_the_document(view, money, statements, the_key, is_key)
    if placed is not None:
        return placed
    others = [s for s in statements if s.asserted and s.main and not the_key(s)]
    keys = [s for s in statements if the_key(s)]
    if others and not any(s.asserted and s.main for s in keys) and any(is_key(s.figure) for s in statements):
        # the key's value is there, but denied, withdrawn, or in another currency or period, beside another amount
        return _wrong(view, money, [s.figure for s in others], outcomes.MONEY_WRONG_FIGURE, is_key, firm=True)
    return None


def _stated_against_the_document(view: AnswerView, money: list, statements: list[Stated], the_key, is_key):
    """Read against where the key stands in its document (view.key_place: "Amount due: $26.99"): the
    document's label of the key stated as another amount ("The amount due is $42.99"), or the key stated
    as an amount the page labels otherwise ("The ending balance is $26.99" where the page's ending balance
    is $42.99), asserts a wrong figure, firm. None where the document's labels decide nothing."""
    place = view.key_place
    if place is None:
        return None
    own = Asked(measure_words(place.label.lower()))  # a label opens its line: its capital names nothing
    if not own.words:
        return None
    stated = [s for s in statements if s.asserted and s.main and not s.compares]
    by_label = [s for s in stated if states(s, own)]
    if by_label and not any(the_key(s) for s in by_label):
        return _wrong(view, money, [s.figure for s in by_label], outcomes.MONEY_OTHER_VALUE, is_key, firm=True)
    for label, _ in place.others:
        other = Asked(measure_words(label.lower()))
        if not other.words or other.words <= own.words:
            continue
        misplaced = [s for s in stated if the_key(s) and states(s, other) and not states(s, own)]
        if misplaced and not any(the_key(s) and states(s, own) for s in stated):
            wrong = [s.figure for s in misplaced]
            return _wrong(view, money, wrong, outcomes.MONEY_KEY_OTHER_MEASURE, is_key, firm=True)
    return None


def _wrong(view: AnswerView, money: list, figures: list, rule: str, is_key, firm: bool = False) -> Finding:
    """Wrong by `rule`, the wrong money `figures` marked, and each key figure the answer states as another
    measure marked "mentioned as" it ("mentioned as segment profit")."""
    marks = [{"kind": "wrong_money", "needle": f.text, "start": f.start, "end": f.end} for f in figures]
    for f in money:
        other = view.measures.other(f) if is_key(f) else None
        if other is not None:
            marks.append({"kind": "mentioned_as", "needle": f"mentioned as {other.phrase}", "start": f.start,
                          "end": f.end})  # fmt: skip
    return Finding(
        "money_guard",
        Verdict.WRONG,
        outcomes.WRONG_MONEY,
        rule,
        tuple(marks),
        firm=firm,
        wrong_money=tuple(f.text for f in figures),
    )


CHECK = Check(
    "money_guard",
    run,
    "a money question answered with a money figure that is not the key",
    order=20,
    needs=("money_question", "money_key"),
    sections={"money": Money},
    rules=(outcomes.MONEY_WRONG_FIGURE, outcomes.MONEY_OTHER_VALUE, outcomes.MONEY_KEY_OTHER_MEASURE),
)
