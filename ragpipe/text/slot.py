"""A name is the value of the slot the question opens: who or what the answer asserts the predicate of.

"Which product line had the highest margin in 2022?" opens a slot, "___ had the highest margin" (a
question whose predicate names someone, "Which animal was Robin Hood?", asks about that name, and its
slot is no subject: it opens none here). An answer fills it in the clause that echoes the predicate:
"Kitchenware had the highest margin in 2022; Outdoor came second" asserts Kitchenware, and mentions
Outdoor. The echo is read conservatively: a clause of one sentence holding every content word of the
question's predicate, whose subject (its words before the predicate's verb) is a name of one to four
capitalized words, not a pronoun. Anything else fills no slot here.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragpipe.text.measures import stem
from ragpipe.text.names import FIRM_NAME
from ragpipe.text.sentences import sentences
from ragpipe.text.words import WORD

_FILLER = frozenset(
    """the a an of in on at for to by during from its their his her this that these those and or fiscal year
    quarter fy as""".split()
)
_PRONOUNS = frozenset("it he she they this that these those there we i you one which who what".split())


@lru_cache(maxsize=16)
def _patterns(verbs: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The question that opens a slot with one of `verbs`, and the verb in an answer's clause."""
    either = "|".join(verbs)
    question = rf"^\W*(?:which|what|who)\b(?:\s+[\w'\u2019-]+){{0,3}}?\s+(?P<verb>{either})\s+(?P<pred>[^?]+)"
    return re.compile(question, re.IGNORECASE), re.compile(rf"\b(?:{either})\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def asked_slot(question: str, verbs: tuple[str, ...]) -> tuple[str, frozenset[str]] | None:
    """(the predicate's verb, its content words stemmed) of a which/who question, or None. `verbs`: the
    verbs that open a slot (rules.yaml `slot.verbs`: grading/readings/slot.py)."""
    m = _patterns(verbs)[0].match(question.strip())
    if not m or any(w[0].isupper() for w in WORD.findall(m.group("pred"))):
        return None  # a name in the predicate: the question asks about it, the slot is not its subject
    words = frozenset(stem(w) for w in WORD.findall(m.group("pred")) if w.lower() not in _FILLER and not w[0].isupper())
    return (m.group("verb").lower(), words) if len(words) >= 2 else None


def slot_filler(
    text: str, slot: tuple[str, frozenset[str]] | None, verbs: tuple[str, ...]
) -> tuple[str, int, int] | None:
    """The name the answer asserts the question's predicate of (`slot`: `asked_slot` of the question), with
    its span, or None."""
    if slot is None:
        return None
    verb, words = slot
    in_clause = _patterns(verbs)[1]
    for start, end in sentences(text):
        clause = text[start:end]
        m = in_clause.search(clause)
        if m is None:
            continue
        if not words <= {stem(w) for w in WORD.findall(clause[m.end() :])}:
            continue
        subject = clause[: m.start()].rsplit(",", 1)[-1].strip().removeprefix("The ").removeprefix("the ")
        if FIRM_NAME.fullmatch(subject) and subject.split()[0].lower() not in _PRONOUNS:
            at = start + clause.index(subject)
            return subject, at, at + len(subject)
    return None
