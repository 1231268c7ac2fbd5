"""The yes or no an answer gives, stated ("Yes, ...") or implied by restating the question.

"Does AMCOR have an improving gross margin profile?" is answered No by "Amcor
does not have an improving gross margin profile" and by "Amcor's gross margin
profile is declining", Yes by "Amcor has an improving gross margin profile".
Only the answer's first sentence counts, and only when it restates most of
the question's content words (rules: polarity).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragpipe.grading.rules import Rules
from ragpipe.text.matching import first_sentence
from ragpipe.text.tokenize import tokenize

_LEADING_YES_NO = re.compile(r"^\W*(?:based on [^,.]*,\s*)?(yes|no)\b", re.IGNORECASE)
_WORDS = re.compile(r"[a-z]+(?:'[a-z]+)?")


def stated_polarity(text: str) -> tuple[str, int, int] | None:
    """The Yes or No an answer opens with ("Yes, ...", "Based on the filing, no, ..."), and its span."""
    m = _LEADING_YES_NO.match(text)
    return (m.group(1).lower(), m.start(1), m.end(1)) if m else None


@lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    return frozenset(tokenize(text))


@lru_cache(maxsize=16)
def _antonym_stems(antonyms: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    return tuple(((tokenize(a) or [""])[0], (tokenize(b) or [""])[0]) for a, b in antonyms)


def _asked(question: str) -> str:
    """The question proper: its text up to the first question mark. What follows is an instruction
    ("If working capital is not a useful metric, then state that"), not part of what is restated."""
    end = question.find("?")
    return question if end < 0 else question[: end + 1]


def implied_polarity(question: str, text: str, rules: Rules) -> tuple[str, int, int] | None:
    """Yes or No from a first sentence that restates the question, and that sentence's span."""
    p = rules.polarity
    asked = _stems(_asked(question))
    start, end = first_sentence(text)
    sentence = text[start:end]
    said = set(tokenize(sentence))
    if not asked or not said:
        return None
    turned = 0
    for sa, sb in _antonym_stems(tuple(map(tuple, p.antonyms))):
        if (sa in asked and sa not in said and sb in said) or (sb in asked and sb not in said and sa in said):
            turned += 1
            said |= {sa, sb}
    if len(asked & said) < p.restates_share * len(asked):
        return None
    words = _WORDS.findall(sentence.lower().replace("\u2019", "'"))
    negated = sum(1 for w in words if w in p.negations or w.endswith("n't") and "n't" in p.negations)
    return ("no" if (negated + turned) % 2 else "yes"), start, end
