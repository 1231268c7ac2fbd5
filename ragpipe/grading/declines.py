"""Does an answer decline? Decided on what the answer asserts, not on a phrase alone.

An answer declines when one of its sentences says a decline phrase (the
rules' literal phrases and idiom patterns, whole words, case-insensitive,
exclusions such as "not covered" never counting) and no other sentence
asserts a figure. "Net income was $11,588 million. The document does not
specify how much is attributable to shareholders." answers the question and
hedges on a part: it is not a decline. Sentences that only describe how one
*would* answer ("you would divide ... by ...") assert nothing.

Monotone by construction: a new decline phrase can only turn an assertion
sentence into a decline sentence, so it can only make more answers declines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ragpipe.figures import Figure, find_figures
from ragpipe.grading.rules import Rules

_BOUNDARY = re.compile(r"(?<=[.!?;])\s+|\n+")  # "$1.45" is no boundary: a sentence (or a clause after ";") ends at a stop *and* a space
_DATE = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?"
    r"|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b",
    re.IGNORECASE,
)


_PIVOT = re.compile(r"\W*(?:however|but|that said|nevertheless|nonetheless|still|instead)\b")


@dataclass(frozen=True)
class Decision:
    declined: bool
    spans: list[tuple[int, int, str]]  # decline phrases found
    assertions: list[tuple[int, int]]  # sentences that assert a figure


@lru_cache(maxsize=64)
def _decline_pattern(phrases: tuple[str, ...], patterns: tuple[str, ...]) -> re.Pattern[str]:
    literal = sorted((re.escape(p.lower()).replace(r"\ ", r"\s+") for p in phrases), key=len, reverse=True)
    if all(p[:1].isalnum() for p in phrases) and all(p.startswith(r"\b") for p in patterns):
        # Every alternative starts at a word boundary: say so once, up front, and Python's
        # matcher skips non-word positions instead of trying all alternatives there (3x faster).
        alts = [r"(?:" + "|".join(literal) + r")(?!\w)"] if literal else []
        return re.compile(r"(?=\w)\b(?:" + "|".join(alts + [f"(?:{p})" for p in patterns]) + ")")
    alts = [r"(?<!\w)(?:" + "|".join(literal) + r")(?!\w)"] if literal else []
    alts += [f"(?:{p})" for p in patterns]
    return re.compile("|".join(alts))


@lru_cache(maxsize=64)
def _markers(markers: tuple[str, ...]) -> re.Pattern[str] | None:
    return re.compile("|".join(f"(?:{m})" for m in markers)) if markers else None


def _normalize(text: str) -> str:
    """Lower case with curly apostrophes folded; same length, so offsets hold."""
    return text.lower().replace("\u2019", "'")


def sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences (and lines) of `text`."""
    spans, start = [], 0
    for m in _BOUNDARY.finditer(text):
        if text[start : m.start()].strip():
            spans.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def decline_spans(answer: str, rules: Rules) -> list[tuple[int, int, str]]:
    """(start, end, text) of every decline phrase or idiom in `answer`, exclusions dropped."""
    phrases = tuple(p for p in rules.declines.phrases if p.lower() not in rules.excluded)
    pattern = _decline_pattern(phrases, tuple(p.pattern for p in rules.declines.patterns))
    spans = []
    for m in pattern.finditer(_normalize(answer)):
        if not any(x in m.group(0) for x in rules.excluded):
            spans.append((m.start(), m.end(), m.group(0)))
    return spans


def asserts(figure: Figure) -> bool:
    """A figure that states something: not a year, not a list number or small count."""
    if figure.is_money or figure.is_percent:
        return True
    if figure.decimals == 0 and 1900 <= figure.value <= 2100:
        return False
    return not (figure.decimals == 0 and abs(figure.value) < 10)


def decide(answer: str, rules: Rules) -> Decision:
    text = _normalize(answer)
    spans = decline_spans(answer, rules)
    if not spans:
        return Decision(False, [], [])
    hypothetical = _markers(tuple(rules.assertions.hypothetical_markers))
    first_decline = spans[0][0]
    asserted = []
    for start, end in sentences(text):
        if any(start <= s < end for s, _, _ in spans):
            continue
        if rules.assertions.scope == "before_first_decline" and start > first_decline and not _PIVOT.match(text[start:end]):
            continue  # the stance is set: figures after a refusal are context it quotes, unless it turns ("However, ...")
        sentence = text[start:end]
        if hypothetical is not None and hypothetical.search(sentence):
            continue
        # dates are context, like years: "December 31, 2018" asserts nothing
        if any(asserts(f) for f in find_figures(_DATE.sub(" ", answer[start:end]))):
            asserted.append((start, end))
    return Decision(not asserted, spans, asserted)


def is_decline(answer: str, rules: Rules) -> bool:
    return decide(answer, rules).declined
