"""What a verdict, a label or a judgment was computed from, hashed one way: its inputs' fingerprints.

A grade row's `input_sha` (everything besides the grader version its verdict depends on), a history
row's `answer_sha` (the answer's text and citations), a label's `input_sha` (what the person read)
and a judgment's input key (what the judge saw) are each a SHA-256 of their parts joined by NUL,
cut to a fixed length. One function makes them all, so the four can be compared and never drift
(their bytes are as they always were: stored fingerprints still match).
"""

from __future__ import annotations

import hashlib


def digest(*parts: str, length: int = 16) -> str:
    """The first `length` hex digits of the SHA-256 of `parts` joined by NUL."""
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:length]


def _cited(citations) -> list[str]:
    return list(map(str, citations if citations is not None else []))


def answer_sha(answer: str | None, citations) -> str:
    """An answer as it was given: its text and what it cited."""
    return digest((answer or "") + "\0" + "\0".join(_cited(citations)))


def seen_sha(question: str, gold_answer: str, answer: str | None, citations) -> str:
    """What a labeller judged: the question, the gold answer, the answer and its citations. A label
    counts while these still read the same."""
    return digest(question, gold_answer, answer or "", *_cited(citations))


def judge_input_key(kind: str, question: str, gold: str, answer: str) -> str:
    """What a judge saw of an answer: the question's kind and text, the gold as shown, the answer."""
    return digest(kind, question, gold, answer, length=20)
