"""Sentences in text, cut two ways for two questions.

- `sentences`: every sentence, and every clause after ";", and every line: the unit a decline or an
  assertion is judged in. A stop ends one only with a space after it, so "$1.45" is no boundary.
- `first_sentence`: the answer's opening statement, which also ends at a colon ("The answer is
  increase: ..."): where an answer gives its choice or its yes/no.
"""

from __future__ import annotations

import re

_BOUNDARY = re.compile(r"(?<=[.!?;])\s+|\n+")
_FIRST_END = re.compile(r"[.!?:](?=\s)|\n")
_WORD_CHAR = re.compile(r"\w")


def sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences (and ;-clauses, and lines) of `text`."""
    spans, start = [], 0
    for m in _BOUNDARY.finditer(text):
        if text[start : m.start()].strip():
            spans.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def first_sentence(text: str) -> tuple[int, int]:
    """(start, end) of the first sentence with words in it, its stop excluded: where an answer gives
    its choice or its yes/no (blanked attributions are spaces, so offsets hold)."""
    start = len(text) - len(text.lstrip())
    for m in _FIRST_END.finditer(text):
        if _WORD_CHAR.search(text, start, m.start()):
            return start, m.start()
    return start, len(text.rstrip())
