"""One tokenizer for indexing, retrieval and the extractive engine.

Numbers stay whole ("44,322" -> "44322", "42.99" stays) so a figure is one
token; words are lower-cased, stop words dropped and Snowball-stemmed so
"contribution" meets "contributed". Every consumer must use this function, or
BM25 scores and engine support stop meaning the same thing.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[a-z]+")

STOPWORDS = frozenset(
    """a about above after again all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers him his how i if in into is it its itself
    just many me more most much my no nor not of off on once only or other our ours out over own same
    she should so some such than that the their theirs them then there these they this those
    through to too under until up very was we were what when where which while who whom why
    will with would you your yours""".split()
)


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


def _normalize_number(tok: str) -> str:
    return tok.replace(",", "")


def tokenize(text: str) -> list[str]:
    """Tokens of `text` for BM25: stemmed words without stop words, whole numbers."""
    words: list[str] = []
    for tok in _TOKEN.findall(text.lower().replace("\u2019", "'").replace("'s ", " ")):
        if tok[0].isdigit():
            words.append(_normalize_number(tok).rstrip("."))
        elif tok not in STOPWORDS and len(tok) > 1:
            words.append(tok)
    stemmer = _stemmer()
    return [w if w[0].isdigit() else stemmer.stemWord(w) for w in words]
