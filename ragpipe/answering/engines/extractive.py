"""The built-in engine: extractive, deterministic, and honest about support.

It retrieves BM25 top-k chunks, estimates how much of the question the best
chunk covers (idf-weighted share of the question's terms; a term the corpus
never uses weighs the most), declines when that support is below
`min_support`, and otherwise answers with the one sentence that best covers
the question and carries the kind of value asked for (a money figure for
"how much", a percentage for "rate"), cited as [1].
"""

from __future__ import annotations

import math
import re
from typing import Any

from ragpipe.answering.engines.base import EngineAnswer, RetrievalContext
from ragpipe.corpus.questions import Question
from ragpipe.text.figures import find_figures
from ragpipe.text.tokenize import tokenize

DECLINE = "I could not find this in the provided documents."

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
_WANTS_MONEY = re.compile(
    r"\b(how much|amount|cost|fee|balance|premium|rent|price|payment|paid|pay|salary|owe|spen[dt]"
    r"|income|revenue|expense|deposit|deductible)s?\b",
    re.I,
)
_WANTS_PERCENT = re.compile(r"\b(rate|percent(age)?|margin|ratio)s?\b|%", re.I)
_WANTS_COUNT = re.compile(r"\bhow many\b", re.I)
_CUES = re.compile(_WANTS_MONEY.pattern + "|" + _WANTS_PERCENT.pattern, re.I)
_WORD = re.compile(r"[a-z0-9]+")
_FILLER = {"a", "an", "the", "of", "on", "in", "for", "to"}


def sentences(text: str) -> list[str]:
    out: list[Any] = []
    for line in text.splitlines():
        out.extend(s.strip() for s in _SENTENCE_END.split(line) if s.strip())
    return out


class ExtractiveEngine:
    name = "extractive"
    uses_pair_retrieval = True

    def __init__(self, min_support: float = 0.6, max_words: int = 60):
        self.settings = {"min_support": min_support, "max_words": max_words}
        self.min_support = min_support
        self.max_words = max_words

    def _coverage(self, weights: dict[str, float], tokens: set[str]) -> float:
        total = sum(weights.values())
        return sum(w for t, w in weights.items() if t in tokens) / total if total else 0.0

    def _type_bonus(self, question: str, sentence: str) -> float:
        """Reward the kind of value the question asks for; a sentence without it is a poor answer."""
        figures = find_figures(sentence)
        if _WANTS_PERCENT.search(question):
            return 0.3 if any(f.is_percent for f in figures) else -0.5
        if _WANTS_COUNT.search(question):
            return 0.3 if any(not f.is_money for f in figures) else -0.5
        if _WANTS_MONEY.search(question):
            return 0.3 if any(f.is_money for f in figures) else -0.5
        return 0.0

    def _local_weights(self, weights: dict[str, float], parts: list[set[str]], cues: set[str]) -> dict[str, float]:
        """Down-weight terms many sentences of the chunk share (its topic); up-weight the
        question's cue words ("owe", "balance", "rate"), which name the quantity asked for."""
        n = len(parts)
        return {
            t: w * math.log(1 + n / (1 + sum(t in p for p in parts))) * (2.0 if t in cues else 1.0)
            for t, w in weights.items()
        }

    def _form_penalty(self, sentence: str, question_words: set[str]) -> float:
        """A line that only echoes the question, or a bare title, answers nothing."""
        penalty = 0.0
        if set(_WORD.findall(sentence.lower())) - _FILLER <= question_words:
            penalty -= 0.5
        if not find_figures(sentence) and ":" not in sentence and not sentence.rstrip().endswith((".", "!", "?")):
            penalty -= 0.3
        return penalty

    def answer(self, question: Question, context: RetrievalContext) -> EngineAnswer:
        hits = context.search(question.text)
        terms = set(tokenize(question.text))
        weights = {t: context.index.idf(t) for t in terms}
        if not hits or not weights:
            return EngineAnswer(answer=DECLINE)
        support = {h.chunk_id: self._coverage(weights, set(tokenize(context.text(h.chunk_id)))) for h in hits}
        if max(support.values()) < self.min_support:
            return EngineAnswer(answer=DECLINE)
        cues = {t for m in _CUES.finditer(question.text) for t in tokenize(m.group(0))}
        question_words = set(_WORD.findall(question.text.lower()))
        best: tuple[float, int, int, str, str] | None = None
        for hit in hits:
            if support[hit.chunk_id] < self.min_support:
                continue
            candidates = [s for s in sentences(context.text(hit.chunk_id)) if len(s.split()) <= self.max_words]
            parts = [set(tokenize(s)) for s in candidates]
            local = self._local_weights(weights, parts, cues)
            for n, (sentence, tokens) in enumerate(zip(candidates, parts)):
                score = (
                    self._coverage(local, tokens)
                    + 0.25 * support[hit.chunk_id]
                    + 0.1 / hit.rank
                    + self._type_bonus(question.text, sentence)
                    + self._form_penalty(sentence, question_words)
                )
                # highest score wins; ties go to the better-ranked chunk, then the earlier sentence
                key = (score, -hit.rank, -n)
                if best is None or key > best[:3]:
                    best = (score, -hit.rank, -n, sentence, hit.chunk_id)
        if best is None:
            return EngineAnswer(answer=DECLINE)
        sentence, chunk_id = best[3], best[4]
        return EngineAnswer(
            answer=f"{sentence.rstrip()} [1]",
            citations=[context.doc_id(chunk_id)],
            cited_chunks=[chunk_id],
        )
