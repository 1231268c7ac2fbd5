"""A question's kind, and the one rule every reader of a decline shares: where declining is right.

`answerable`: the documents answer it, and a decline is wrong. `negative`: they cannot, and saying so
is right. `ambiguous`: declining and answering are both acceptable. The decline check, the judge's
verdicts, people's labels (a `refusal` label) and the labelling page all read "is declining right
here?" from `declining_is_right`, so the four can never disagree.
"""

from __future__ import annotations

from enum import StrEnum


class QuestionKind(StrEnum):
    ANSWERABLE = "answerable"
    NEGATIVE = "negative"
    AMBIGUOUS = "ambiguous"


KINDS: tuple[str, ...] = tuple(k.value for k in QuestionKind)
DECLINING_RIGHT: frozenset[str] = frozenset({QuestionKind.NEGATIVE.value, QuestionKind.AMBIGUOUS.value})


def declining_is_right(kind: str | None) -> bool:
    """Whether a decline is a right answer to a question of `kind`."""
    return kind in DECLINING_RIGHT
