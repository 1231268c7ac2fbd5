"""A quote, once: what double quotes hold, read two ways for two texts.

- `quoted_spans`, in an answer: words mentioned, not said. A song title or a line of lyrics in double
  quotes ("a hit with “Don't Give In to Him”", "the lyrics “you can check out any time you like”") holds
  words the answerer reports, not words the answerer says: a decline phrase inside one refuses nothing.
  An answer wrapped whole in quotes says what it quotes.
- `quoted_phrases`, in a gold answer: a title or a term the gold quotes ("the “Fit for Growth”
  programme") is a needle of its own, whole: two to eighty characters between any double quotes
  (corpus/needle_mining.py).
"""

from __future__ import annotations

import re

# a straight quote opens after no letter or digit (not the inch mark of 55") and closes before none; a
# passage holds no sentence's end, so a stray mark never turns whole sentences of the answer into a quote
_QUOTED = re.compile('(?<!\\w)"(?:(?![.!?]\\s)[^"\\n]){1,200}"(?!\\w)|\u201c(?:(?![.!?]\\s)[^\u201d\\n]){1,200}\u201d')


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each double-quoted passage within a sentence, quote marks included; none when
    nothing else is said."""
    if '"' not in text and "\u201c" not in text:  # most answers quote nothing: no scan
        return []
    spans = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
    if not spans:
        return []
    said, last = [], 0
    for start, end in spans:
        said.append(text[last:start])
        last = end
    said.append(text[last:])
    return spans if re.search(r"\w", "".join(said)) else []


_IN_GOLD = re.compile(r"[\"\u201c]([^\"\u201d]{2,80})[\"\u201d]")


def quoted_phrases(text: str) -> list[str]:
    """What a gold answer quotes, each phrase stripped, in order."""
    return [m.group(1).strip() for m in _IN_GOLD.finditer(text)]


def within_quotes(span: tuple[int, int], quoted: list[tuple[int, int]]) -> bool:
    """The span lies inside one quoted passage."""
    return any(start < span[0] and span[1] < end for start, end in quoted)
