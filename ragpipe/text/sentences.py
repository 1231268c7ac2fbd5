"""Sentences in text, cut two ways for two questions.

- `sentences`: every sentence, and every clause after ";", and every line: the unit a decline or an
  assertion is judged in. A stop ends one only with a space after it, so "$1.45" is no boundary.
- `first_sentence`: the answer's first statement, which also ends at a colon ("The answer is
  increase: ..."); `opening_statements`: it and, after an announcing colon ("Here are the key
  points: - ..."), the statement announced (past a header line: "FY2023:"): where an answer gives its
  choice or its yes/no.
- `asking_sentence`: a question's first sentence, what it asks (a second one gives context).
- `sentence_start`: where the sentence holding an offset begins, read back from it: after the last stop,
  semicolon or line break that is not a figure's decimal point. The same boundaries as `sentences`, which
  needs a space after a stop: a stop with a digit after it is a decimal point, one with a letter after it
  an abbreviation's or a typo, read alike here. Clauses are text/clauses.py's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_BOUNDARY = re.compile(r"(?<=[.!?;])\s+|\n+")
_FIRST_END = re.compile(r"[.!?:](?=\s)|\n")
_WORD_CHAR = re.compile(r"\w")
_QUESTION_END = re.compile(r"(?<=[?.])\s")


SENTENCE_REACH = 2000  # characters a sentence is read over, either way from an offset: no sentence is longer


def sentence_start(text: str, offset: int, reach: int = SENTENCE_REACH) -> int:
    """Where the sentence holding `offset` begins: after the last stop, semicolon or line break before it that
    is not a figure's decimal point ("$1,145.50"), at most `reach` characters back. Read back from `offset`
    only: linear over an answer."""
    floor, i = max(0, offset - reach), offset
    while i > floor:
        i = max(text.rfind(c, floor, i) for c in ".;!?\n")
        if i < 0:
            return floor
        if not (text[i] == "." and i + 1 < len(text) and text[i + 1].isdigit()):
            return i + 1
    return floor


def asking_sentence(question: str) -> str:
    """The question's first sentence: up to a question mark or full stop before a space."""
    return _QUESTION_END.split(question.strip(), maxsplit=1)[0]


def sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences (and ;-clauses, and lines) of `text`."""
    return list(iter_sentences(text))


def iter_sentences(text: str) -> Iterator[tuple[int, int]]:
    """The same spans one by one, for a reader that stops at the first it wants (the opening)."""
    start = 0
    for m in _BOUNDARY.finditer(text):
        if text[start : m.start()].strip():
            yield start, m.start()
        start = m.end()
    if text[start:].strip():
        yield start, len(text)


def first_sentence(text: str) -> tuple[int, int]:
    """(start, end) of the first sentence with words in it, its stop excluded: where an answer gives
    its choice or its yes/no (blanked attributions are spaces, so offsets hold)."""
    start = len(text) - len(text.lstrip())
    for m in _FIRST_END.finditer(text):
        if _WORD_CHAR.search(text, start, m.start()):
            return start, m.start()
    return start, len(text.rstrip())


_ANNOUNCES = re.compile(
    r"\b(?:here (?:is|are)|as follows|the following|(?:a )?summary|key (?:points|information|facts|details))\b",
    re.IGNORECASE,
)


_HEADER = re.compile(r":[ \t]*\n")  # a line that ends at its colon: a header over what follows, not a statement

# "Sure!", "Hello!": an interjection greets the asker and says nothing; "Yes!" is an answer and stays
_INTERJECTION = re.compile(r"(?:sure|hello|hi|hey|okay|ok|(?:great|good) question)!", re.IGNORECASE)


def opening_statements(text: str) -> list[tuple[int, int]]:
    """The answer's opening: its first sentence and, when that announces what follows ("Here are the key
    points:", "... is as follows:"), the statement after its colon, or after the header line that follows it
    ("FY2023:"). Where an answer gives its yes/no or its choice. A first sentence that ends at a colon
    without announcing ("Investing: ...") is the choice; one that is an interjection ("Sure! Based on the
    filing, ...") is not the opening, the sentence after it is."""
    start, end = first_sentence(text)
    if _INTERJECTION.fullmatch(text, start, end + 1):
        start, end = _sentence_after(text, end) or (start, end)
    if not text.startswith(":", end) or not _ANNOUNCES.search(text, start, end):
        return [(start, end)]
    after = _sentence_after(text, end)
    if after is not None and _HEADER.match(text, after[1]):
        after = _sentence_after(text, after[1]) or after  # a header line ("FY2023:") names what follows
    return [(start, end)] if after is None else [(start, end), after]


def _sentence_after(text: str, end: int) -> tuple[int, int] | None:
    """The first sentence after the one ending at `end` (past its mark), or None if nothing follows."""
    rest = end + 1
    start, stop = first_sentence(text[rest:])
    return (rest + start, rest + stop) if stop > start else None
