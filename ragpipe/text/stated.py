"""What a text says of the measure asked about: there is none, it does not apply, it did not move.

Two readers of each, on purpose: a gold answer must *state* it for mining to make it the key ("There
are none", "gross margin is not a relevant metric", "Real growth was flat"), while an answer meets
that key in its own words ("the company made no acquisitions", "not a meaningful measure", "in line
with the prior year", "0%"). An answer's "none" counts only in its opening (`AnswerSays.in_opening`: its
first sentence, and the statement it announces); where the gold is a none, that opening also outweighs a later
decline phrase (grading/checks/decline/none_given.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from ragpipe.text.needle_kinds import MatchKind, NeedleKind
from ragpipe.text.sentences import opening_statements

GOLD_SAYS = {
    # "There are none", "0", "did not make any acquisitions"
    NeedleKind.ABSENCE: re.compile(
        r"^\W*(?:there (?:are|is|were|was) )?(?:none|nothing|zero|nil)\b|^\W*\$?0(?:\.0+)?%?\W*$"
        r"|\b(?:did|does|do|has|have|had) not (?:\w+ )?any\b|\bnot involved in\b",
        re.IGNORECASE,
    ),
    # "gross margin is not a relevant metric", "Performance is not measured through operating margin"
    NeedleKind.INAPPLICABLE: re.compile(
        r"\bnot (?:a |an |the )?(?:\w+ )?(?:relevant|useful|meaningful|applicable)\b|\bnot measured (?:through|by)\b",
        re.IGNORECASE,
    ),
    # "Real growth was flat", "the ratio is zero"
    NeedleKind.UNCHANGED: re.compile(
        r"\b(?:is|was|were|are|remained|been|stayed)\s+(?:flat|zero|unchanged|nil)\b", re.IGNORECASE
    ),
}

_THEN_ANY = r"[^.,;:]{0,40}?\bany\b"  # a negation's "any", within its clause: "has not reported any"


@dataclass(frozen=True, eq=False)  # made once per rules (`of`): hashed by identity
class AnswerSays:
    """How an answer says what a gold's none says (there is none, it does not apply, it did not move):
    judgement, so it is rules.yaml's `stated` section (grading/readings/stated.py), handed in here. A "none"
    counts only in the answer's opening; the other two anywhere in what it asserts."""

    patterns: Mapping[MatchKind, re.Pattern[str]]

    @classmethod
    @lru_cache(maxsize=16)
    def of(cls, said: tuple[tuple[str, tuple[str, ...]], ...]) -> AnswerSays:
        """From (match kind, its regexes, alternatives of one another) pairs, as rules.yaml writes them."""
        return cls({MatchKind(k): re.compile("|".join(alts), re.IGNORECASE) for k, alts in said if alts})

    def in_opening(self, kind: MatchKind, text: str) -> tuple[int, int] | None:
        """Where `text`'s opening (its first sentence, and the statement it announces: text/sentences.py)
        says what `kind` says of the measure, or None."""
        pattern = self.patterns.get(kind)
        m = pattern.search(text, 0, opening_statements(text)[-1][1]) if pattern is not None else None
        return (m.start(), m.end()) if m else None

    def found(self, kind: MatchKind, text: str) -> tuple[int, int] | None:
        """Where the answer says it as a needle of `kind` is met: a none in its opening, the rest anywhere."""
        if kind == MatchKind.ABSENCE:
            return self.in_opening(kind, text)
        pattern = self.patterns.get(kind)
        m = pattern.search(text) if pattern is not None else None
        return (m.start(), m.end()) if m else None


NOTHING_SAID = AnswerSays({})  # the reading switched off: no answer says any of it
SAID_KINDS = frozenset({MatchKind.ABSENCE, MatchKind.INAPPLICABLE, MatchKind.UNCHANGED})


# "does not mention any acquisitions", "no information regarding any legal battles": a negation over any
# of the things asked about, whoever's voice it is in (the answer's, or the source's inside a decline)
_DENIES_ANY = re.compile(rf"(?:\b(?:not|never|no)\b|n't\b){_THEN_ANY}", re.IGNORECASE)


def opening_denies_any(text: str) -> bool:
    """Whether `text`'s opening says there is not any of something ("The filing does not mention any
    acquisitions"), in whatever voice: a none of the things, where "there is no information on X" is a
    none of the information."""
    return _DENIES_ANY.search(text, 0, opening_statements(text)[-1][1]) is not None
