"""A word, once: what the readers mean by a word as written, a text folded for matching, and a stem.

Two texts that differ only by case or a curly apostrophe are the same words; `folded` keeps every
offset, so a match in the folded text is a span of the original. A word as written (`WORD`) is a letter
then letters, apostrophes and hyphens ("isn't", "year-over-year"); `WORD_ALONE` is one that does not
continue another word or an abbreviation ("U.S." has no word "S"). Stems are Snowball's English ones,
the same for BM25's tokens (text/tokenize.py) and for what a question asks about (text/measures.py).

The other word-like patterns of the readers are other notions and say so where they are defined:
BM25's token (a run of letters or a number: text/tokenize.py), a key's token for normalized matching
(any script's letters, or a decimal: text/normalize.py), a run of letters and digits around a needle
(text/matching.py), and a candidate word of a mined name (corpus/needle_mining.py).
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019-]*")
WORD_ALONE = re.compile(r"(?<![\w.])" + WORD.pattern)


def folded(text: str) -> str:
    """Lower case with curly apostrophes folded; the same length, so offsets hold."""
    return text.lower().replace("\u2019", "'")


@lru_cache(maxsize=1)
def stemmer() -> Stemmer.Stemmer:
    """Snowball's English stemmer (one per process: building it is not free)."""
    return Stemmer.Stemmer("english")
