"""A clause, once: where one ends, where one begins, and what closes one after a figure.

A sentence (text/sentences.py) holds clauses. Two readers cut them, for two questions, both here:

- `clause_ends`: where a measure's clause ends, read back from a figure or on after it (text/measures.py,
  text/money_statement.py): at punctuation, and at the words that start another clause ("but", "while",
  "which", "compared", "from", ...). A comma or a stop between digits is inside a figure ("$9,454.50").
- `clause_close`: what closes the clause a figure stands in, on after it: a comma closes the clause, a
  stop, semicolon or line break the sentence (a concessive opening, "While line 33 lists $1,145, ...",
  is a clause of its own only where a comma closes it).

`opens_clause`: whether a word stands first in its sentence or clause (after a stop, a colon, a
semicolon, an opening bracket or a line break), where a capital is the sentence's, not a name's.
"""

from __future__ import annotations

import re
from bisect import bisect_right

# a lookahead on the characters a clause end can begin with skips every other position at once (half the time)
_CLAUSE_END = re.compile(
    r"(?=[,.;:()\[\]!?\nabcfilmpstvwABCFILMPSTVW])(?:[;:()\[\]!?\n]|[,.](?!\d)|(?<!\d)[,.]"
    r"|\b(?:but|while|whereas|and|after|before|which|that|because|since|although|with|versus|vs"
    r"|compared|including|less|plus|minus|from)\b)",
    re.IGNORECASE,
)
_CLOSE = re.compile(r",(?!\d)|[;!?\n]|\.(?!\d)")
_OPENS = re.compile(r"(?:^|[.!?;:(\n])\s*$")


def clause_ends(text: str) -> list[int]:
    """Where each clause of `text` ends: found once, every figure's clause is looked up in them."""
    return [m.end() for m in _CLAUSE_END.finditer(text)]


def clause_start(end: int, ends: list[int]) -> int:
    """Where the clause holding the text up to `end` begins (`ends`: `clause_ends` of the text)."""
    i = bisect_right(ends, end) - 1
    return ends[i] if i >= 0 else 0


def clause_close(text: str, start: int, end: int) -> str | None:
    """What first closes a clause in `text[start:end]`: "," (the clause), another mark (the sentence), or None."""
    m = _CLOSE.search(text, start, end)
    return m.group(0) if m else None


def opens_clause(text: str, at: int) -> bool:
    """Whether the word at `at` stands first in its sentence or clause (nothing but spaces after the mark)."""
    return _OPENS.search(text, 0, at) is not None
