"""Where a golden passage lies: the pages of its document that hold it.

A benchmark may tie a question to a passage (Open RAG Benchmark: a section of a paper) rather than to
pages. The retrieval measures and the evidence check work on pages, so a passage without a page is
located in the extracted pages of its document by its 6-word shingles (runs of six words,
lower-cased, punctuation dropped). A page holds the passage when it shares enough of them (a tenth,
or eight) and at least half as many as the page that shares the most: a section broken across two
pages meets both, while a page that shares only a paper's boilerplate ("in this section we ...")
falls far below the section's own page. A passage shorter than a shingle must appear whole.
"""

from __future__ import annotations

import re

import pandas as pd

from ragpipe.corpus.questions import Question

SHINGLE = 6
SHARE, ENOUGH = 0.1, 8


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _shingles(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


def passage_pages(passage: str, doc_pages: pd.DataFrame) -> list[int]:
    """The pages (1-indexed, in order) of one document's pages (page, text) that hold `passage`."""
    words = _words(passage)
    texts = [(int(p), _words(t)) for p, t in zip(doc_pages["page"], doc_pages["text"])]
    if not words:
        return []
    if len(words) < SHINGLE:
        phrase = f" {' '.join(words)} "
        return sorted(p for p, w in texts if phrase in f" {' '.join(w)} ")
    wanted = _shingles(words)
    hits = {p: len(wanted & _shingles(w)) for p, w in texts}
    need = max(min(ENOUGH, max(1, int(SHARE * len(wanted)))), max(hits.values(), default=0) / 2)
    return sorted(p for p, n in hits.items() if n and n >= need)


def locate_passages(questions: list[Question], pages: pd.DataFrame) -> list[Question]:
    """Each question whose evidence passages have no page and that names no golden page, with the pages
    that hold its passages as golden pages; the others as they were."""
    by_doc = {doc: group for doc, group in pages.groupby("doc_id", sort=False)}
    out = []
    for q in questions:
        if q.golden_pages or not q.evidence or any(e.page is not None for e in q.evidence):
            out.append(q)
            continue
        found: dict[str, list[int]] = {}
        for e in q.evidence:
            if e.doc_id in by_doc:
                found[e.doc_id] = sorted(set(found.get(e.doc_id, [])) | set(passage_pages(e.text, by_doc[e.doc_id])))
        out.append(q.model_copy(update={"golden_pages": {d: p for d, p in found.items() if p}}))
    return out
