"""Needle kinds: what mining found in a gold answer, and how the grader looks for it in an answer.

One spelling each, shared by mining (corpus/needle_mining.py), matching
(text/matching.py) and the needle check (grading/checks/needles.py). The
values are stored (`needles.kind`, the `kind` of each span in
`grades.matched`): renaming one is a grader change.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ragpipe.text.figures import Figure


class NeedleKind(StrEnum):
    """What a mined needle is (`needles.kind`)."""

    MONEY = "money"
    NUMBER = "number"
    PERCENT = "percent"
    YEAR = "year"
    DATE = "date"  # a whole day: "July 4, 1776"
    NAME = "name"
    QUOTE = "quote"
    TERM = "term"  # a distinctive word or a run of two or three
    OPTION = "option"  # the option a choice question's gold answer picks
    ANSWER = "answer"  # a short gold answer taken whole
    ABSENCE = "absence"  # the gold answer says there is none
    INAPPLICABLE = "inapplicable"  # ... that the measure does not apply
    UNCHANGED = "unchanged"  # ... that the quantity is flat or nil


class MatchKind(StrEnum):
    """How the grader looks for a needle in an answer."""

    PHRASE = "phrase"  # the words in order, anywhere
    FORM = "form"  # an authored key: any of its alternatives, asides optional, a list's items in any order
    DERIVED_FORM = "derived_form"  # an authored key met only by a word derived from it ("Colombian")
    TERM = "term"  # by stems, anywhere
    LEAD_TERM = "lead_term"  # by stems, in the first sentence
    LEAD_PHRASE = "lead_phrase"  # the words in order, in the first sentence
    MINED_FIGURE = "mined_figure"  # by value, loosely, as mining found it in the filing
    COMPUTED_FIGURE = "computed_figure"  # by value, with the slack the gold answer's calculation allows
    DATE = "date"  # the same day, written any way
    ABSENCE = "absence"  # the first sentence says there is none
    INAPPLICABLE = "inapplicable"  # the answer says the measure does not apply
    UNCHANGED = "unchanged"  # the answer says the quantity is flat or nil
    POLARITY = "polarity"  # the yes or no the answer opens with
    IMPLIED = "implied"  # the yes or no a restating first sentence implies


COMPUTED = "gold_answer_computed"  # the source of a figure kept from the gold answer alone (never printed)
FIGURE_KINDS = frozenset({NeedleKind.MONEY, NeedleKind.NUMBER, NeedleKind.PERCENT, NeedleKind.YEAR})
STATED_KINDS = {
    NeedleKind.INAPPLICABLE: "the gold answer says the measure does not apply",
    NeedleKind.UNCHANGED: "the gold answer says the quantity is flat or nil",
}
# matched by value or by the day: exact evidence, unlike words, which an answer may paraphrase
EXACT_MATCHES = frozenset({MatchKind.MINED_FIGURE, MatchKind.COMPUTED_FIGURE, MatchKind.DATE, MatchKind.POLARITY})


def figure_kind(fig: Figure) -> NeedleKind:
    """What a figure is, as mining keeps it and the grader compares it: money, a percent, a year (a whole
    number from 1900 to 2100 written without a comma: "2,000" is a count), or a number."""
    if fig.is_money:
        return NeedleKind.MONEY
    if fig.is_percent:
        return NeedleKind.PERCENT
    if fig.in_year_range and "," not in fig.text:
        return NeedleKind.YEAR
    return NeedleKind.NUMBER


def match_kind(kind: str) -> MatchKind:
    """How a mined text needle is looked for. Terms by stem; the option a choice question's gold answer
    picks, and a short gold answer taken whole, only in the answer's first sentence: where an answer
    gives its choice, while a dump of the filing mentions every option somewhere. What the gold answer
    says of the measure (there is none, it does not apply, it is flat) by what the answer says of it."""
    return _MATCH_OF.get(kind, MatchKind.PHRASE)


_MATCH_OF: dict[str, MatchKind] = {
    NeedleKind.TERM: MatchKind.TERM,
    NeedleKind.OPTION: MatchKind.LEAD_TERM,
    NeedleKind.ANSWER: MatchKind.LEAD_PHRASE,
    NeedleKind.ABSENCE: MatchKind.ABSENCE,
    NeedleKind.INAPPLICABLE: MatchKind.INAPPLICABLE,
    NeedleKind.UNCHANGED: MatchKind.UNCHANGED,
}
