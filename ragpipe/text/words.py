"""A word, once: what the readers mean by a word, a text folded for matching, and a stem.

Two texts that differ only by case or a curly apostrophe are the same words; `folded` keeps every
offset, so a match in the folded text is a span of the original. Stems are Snowball's English ones, the
same for BM25's tokens (text/tokenize.py) and for what a question asks about (text/measures.py).

What a word is depends on what it is read for; each reading's pattern is here, and only here:

- `WORD`, a word as written: a letter, then letters, apostrophes and hyphens ("isn't",
  "year-over-year"): what a measure, a slot's predicate and a negation are read in.
- `WORD_ALONE`: a `WORD` that does not continue another word or an abbreviation ("U.S." has no word "S").
- `TOKEN`, BM25's token: a run of lower-case letters, or a number with its separators ("44,322"), in
  folded text; `LETTERS` and `DIGITS` are its two kinds apart (text/tokenize.py).
- `KEY_TOKEN`: a key's token for normalized matching, any script's letters, or a decimal that is one
  word ("6.8", not "6" and "8") (text/normalize.py).
- `ALNUM_RUN`: letters and digits, joined by an apostrophe or hyphen ("COVID-19", "10-K"): a word a stem
  is found in, a figure's neighbours included (text/matching.py).
- `PHRASE_WORD`: a letter, then lower-case letters (hyphen-joined), standing alone: a word of a phrase
  mined from a gold answer, a name's capitals inside it ruled out (corpus/needle_mining.py).
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019-]*")
WORD_ALONE = re.compile(r"(?<![\w.])" + WORD.pattern)
DIGITS, LETTERS = re.compile(r"\d+(?:[.,]\d+)*"), re.compile(r"[a-z]+")
TOKEN = re.compile(rf"{DIGITS.pattern}|{LETTERS.pattern}")
KEY_TOKEN = re.compile(r"\d+(?:[.,]\d+)+(?![^\W_])|[^\W_]+", re.UNICODE)
ALNUM_RUN = re.compile(r"[A-Za-z0-9]+(?:['\u2019-][A-Za-z0-9]+)*")
PHRASE_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][a-z]+(?:-[a-z]+)*(?![A-Za-z0-9])")


def folded(text: str) -> str:
    """Lower case with curly apostrophes folded; the same length, so offsets hold."""
    return text.lower().replace("\u2019", "'")


@lru_cache(maxsize=1)
def stemmer() -> Stemmer.Stemmer:
    """Snowball's English stemmer (one per process: building it is not free)."""
    return Stemmer.Stemmer("english")
