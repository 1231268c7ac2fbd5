"""Does a sentence restate a question, and does it keep or turn the question's sense?

"Does AMCOR have an improving gross margin profile?" is restated, its sense
turned, by "Amcor does not have an improving gross margin profile"; "Why
should turnips be barred from voting?" by "Turnips should not be barred from
voting". A sentence restates when it holds at least `share` of the question's
content words (stemmed: tokenize.py); a word the sentence puts in place of
the question's by an antonym pair counts as said, and turns the sense once.
Negations count against the question's own: "Why should trans people not be
allowed ...?" is turned by "There is no reason they should not be allowed".
"""

from __future__ import annotations

from functools import lru_cache

from ragpipe.text.tokenize import tokenize
from ragpipe.text.words import WORD, folded


@lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    return frozenset(tokenize(text))


@lru_cache(maxsize=16)
def _antonym_stems(antonyms: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    return tuple(((tokenize(a) or [""])[0], (tokenize(b) or [""])[0]) for a, b in antonyms)


def asked(question: str) -> str:
    """The question proper: its text up to the first question mark. What follows is an instruction
    ("If working capital is not a useful metric, then state that"), not part of what is restated."""
    end = question.find("?")
    return question if end < 0 else question[: end + 1]


def negations_in(text: str, negations: tuple[str, ...]) -> int:
    """How many negating words `text` holds ("not", "no", any "...n't" when "n't" is one)."""
    words = WORD.findall(folded(text))
    return sum(1 for w in words if w in negations or w.endswith("n't") and "n't" in negations)


def restatement(question: str, sentence: str, share: float, antonyms: tuple[tuple[str, str], ...]) -> int | None:
    """How many antonyms `sentence` turns the question's words by when it restates `question` (holds at
    least `share` of its content words, an antonym standing for the word it replaces); None when it
    does not restate it. Negations are the caller's to count (`negations_in`): polarity counts the
    sentence's, a premise's rebuttal counts them against the question's own."""
    wanted = _stems(asked(question))
    said = set(tokenize(sentence))
    if not wanted or not said:
        return None
    turned = 0
    for sa, sb in _antonym_stems(antonyms):
        if (sa in wanted and sa not in said and sb in said) or (sb in wanted and sb not in said and sa in said):
            turned += 1
            said |= {sa, sb}
    return turned if len(wanted & said) >= share * len(wanted) else None
