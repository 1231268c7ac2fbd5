"""One regular expression for many literal phrases, shaped as a trie.

Python's matcher tries the branches of an alternation one by one at every
position; a trie ("do(?:es not|n't)") shares prefixes, so a position that
starts no phrase is rejected after one character instead of one per phrase.
The language matched is exactly the alternation's.
"""

from __future__ import annotations

import re
from functools import lru_cache


def either(words) -> str:
    """One group matching any of `words` (or word groups) literally, tried in the order given."""
    return "(?:" + "|".join(map(re.escape, words)) + ")"


@lru_cache(maxsize=256)
def any_of(patterns: tuple[str, ...], flags: int = 0) -> re.Pattern[str] | None:
    """One compiled alternation of the rules' `patterns` (each its own group); None when there are none."""
    return re.compile("|".join(f"(?:{p})" for p in patterns), flags) if patterns else None


@lru_cache(maxsize=256)
def any_word(words: tuple[str, ...]) -> re.Pattern[str]:
    """Any of `words` (or word groups) literally, as a whole word."""
    return re.compile(rf"\b{either(words)}\b")


def trie_pattern(phrases: list[str], space: str = r"\s+") -> str:
    """A pattern matching exactly the given literal phrases (a space in a phrase matches `space`)."""
    trie: dict = {}
    for phrase in phrases:
        node = trie
        for ch in phrase:
            node = node.setdefault(ch, {})
        node[""] = {}  # end of a phrase
    return _render(trie, space) if trie else "(?!)"


def _render(node: dict, space: str) -> str:
    ends = "" in node
    branches = [
        (space if ch == " " else re.escape(ch)) + _render(child, space) for ch, child in sorted(node.items()) if ch
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if ends:
        return f"(?:{body})?" if len(branches) > 1 or len(body) > 1 else f"{body}?"
    return body
