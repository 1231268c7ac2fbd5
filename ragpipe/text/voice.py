"""Own voice versus attribution: grade what an answer asserts, not what it mentions.

An answer that reasons aloud quotes the right figure on its way to the wrong
one: "The amount due is $26.99. This is indicated in Source 3, where the
ending balance is listed as $42.99 ..." Each sentence is split at its first
source attribution; what follows a mid-sentence attribution ("..., as listed
in the statement", "This is indicated in Source 3, where ...") is the
source's voice, not the answer's. An attribution that *opens* a sentence
("According to [2], the amount due is $26.99") introduces the answer's own
claim, so that sentence stays in the answer's voice; so does the rest of a
sentence around a parenthetical attribution ("Net income, as reported in the
income statement, is $11,588 million"), and the answer's voice resumes after
an attributed clause at ", but" / ";" ("..., but the amount due is $26.99").

An answer can also reproduce its source instead of answering (a filing
pasted from its cover page on): from the line where the reproduction starts
(`attribution.reproductions`) to the end, the answer is the source's voice.

`voiced` blanks the attributed parts with spaces, so offsets into the
answer stay valid for the matched spans.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ragpipe.text.regex_trie import any_of, either
from ragpipe.text.sentences import sentences


def _compile(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    return any_of(patterns, re.IGNORECASE)


@lru_cache(maxsize=64)
def _context_free(patterns: tuple[str, ...]) -> bool:
    """Markers without anchors or lookaround match inside a sentence only where they match in the whole text."""
    return not any(tok in p for p in patterns for tok in ("^", "$", "\\A", "\\Z", "(?<", "(?=", "(?!"))


_CONTENT = re.compile(r"[a-z0-9$%]", re.IGNORECASE)


def _opens_sentence(sentence: str, start: int) -> bool:
    """Nothing but filler before the attribution ("According to", "Based on the")."""
    return not _CONTENT.search(sentence, 0, start)


@lru_cache(maxsize=16)
def _reproduction(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    """Any of `patterns`, as written, at a line's start (built once per rules, not per answer)."""
    return any_of(tuple(rf"^[ \t]*(?:{p})" for p in patterns), re.MULTILINE)


def reproduced_from(answer: str, attribution: Any) -> int | None:
    """Offset where `answer` starts reproducing its source whole, or None."""
    pattern = _reproduction(tuple(attribution.reproductions))
    m = pattern.search(answer) if pattern is not None else None
    return None if m is None else m.start()


@lru_cache(maxsize=16)
def _clause_end(words: tuple[str, ...]) -> re.Pattern[str]:
    """Where a source's voice ends: a comma and a joining word, a semicolon or a colon."""
    return re.compile(rf",\s+{either(words)}\b|;|:")


def attributed_spans(answer: str, attribution: Any, mode: str | None = None) -> list[tuple[int, int]]:
    """Spans of `answer` spoken in the sources' voice, under `attribution` (rules.yaml's section: its
    markers, clause ends and split mode, which `mode` overrides)."""
    mode = mode or attribution.mode
    if mode == "none":
        return []
    copied = reproduced_from(answer, attribution)
    if copied is not None:  # the answer's own part is what comes before the source's text
        return [*attributed_spans(answer[:copied], attribution, mode), (copied, len(answer))]
    pattern = _compile(attribution.patterns)
    if pattern is None:
        return []
    # judged on the markers as written: `{source}`'s lookaround finds no more in a sentence than in the text
    if _context_free(tuple(attribution.markers)) and not pattern.search(answer):
        return []  # no marker anywhere, so none in any sentence: skip the split (most answers)
    spans = []
    for start, end in sentences(answer):
        sentence = answer[start:end]
        m = pattern.search(sentence)
        if not m:
            continue
        if mode != "before_first" and _opens_sentence(sentence, m.start()):
            continue  # "According to [2], X": X is the answer's claim
        cut_end = end
        if mode == "clause":
            if re.search(r",\s*$", sentence[: m.start()]):
                # a parenthetical ("X, as reported in the income statement, is $11,588
                # million"): the source's voice ends at the closing comma
                close = sentence.find(",", m.end())
                resume = re.compile(",").search(sentence, close) if close != -1 else None
            else:
                resume = _clause_end(tuple(attribution.clause_ends)).search(sentence, m.end())
            if resume:
                cut_end = start + resume.start()
        spans.append((start + m.start(), cut_end))
    return spans


def blank(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with `spans` replaced by spaces (same length: offsets hold)."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def voiced(answer: str, attribution: Any, mode: str | None = None) -> tuple[str, list[tuple[int, int]]]:
    """(`answer` with its attributed parts blanked, those parts' spans)."""
    spans = attributed_spans(answer, attribution, mode)
    return (blank(answer, spans) if spans else answer), spans
