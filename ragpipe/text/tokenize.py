"""One tokenizer for indexing, retrieval and the extractive engine.

Numbers stay whole ("44,322" -> "44322", "42.99" stays) so a figure is one
token; words are lower-cased, stop words dropped and Snowball-stemmed so
"contribution" meets "contributed". Every consumer must use this function, or
BM25 scores and engine support stop meaning the same thing.
"""

from __future__ import annotations

from ragpipe.text.words import DIGITS, LETTERS, TOKEN, folded, stemmer

STOPWORDS = frozenset(
    """a about above after again all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers him his how i if in into is it its itself
    just many me more most much my no nor not of off on once only or other our ours out over own same
    she should so some such than that the their theirs them then there these they this those
    through to too under until up very was we were what when where which while who whom why
    will with would you your yours""".split()
)


def _normalize_number(tok: str) -> str:
    return tok.replace(",", "")


def tokenize(text: str) -> list[str]:
    """Tokens of `text` for BM25: stemmed words without stop words, whole numbers."""
    words: list[str] = []
    for tok in TOKEN.findall(folded(text).replace("'s ", " ")):
        if tok[0].isdigit():
            words.append(_normalize_number(tok).rstrip("."))
        elif tok not in STOPWORDS and len(tok) > 1:
            words.append(tok)
    stem = stemmer()
    return [w if w[0].isdigit() else stem.stemWord(w) for w in words]


# the words Snowball's English stemmer gives a stem of other first letters (its exceptions: "dying" -> "die")
_REHEADED = frozenset({"dying", "lying", "tying"})


def tokens_among(text: str, wanted: frozenset[str]) -> set[str]:
    """`set(tokenize(text)) & wanted`, stemming only the words that could stem to a wanted token: a stem
    keeps its word's first two letters ("trying" -> "tri"; `_REHEADED` aside), so a word whose first two
    are no wanted token's is never stemmed, and two scans in C find `TOKEN`'s tokens (letters and digits
    never share one). What "which of these words does the answer hold" costs, a fraction of `tokenize`."""
    low = folded(text).replace("'s ", " ")
    heads = {w[:2] for w in wanted}
    words = [w for w in set(LETTERS.findall(low)) - STOPWORDS if len(w) > 1 and (w[:2] in heads or w in _REHEADED)]
    numbers = {_normalize_number(n).rstrip(".") for n in set(DIGITS.findall(low))}
    return (numbers | set(stemmer().stemWords(words))) & wanted
