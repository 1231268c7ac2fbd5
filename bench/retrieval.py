"""Retrieval benchmark: the project's BM25 (bm25s) against rank-bm25 on FinanceBench chunks.

Both rank the same chunks (cut from the filings with the default configuration's
knobs) for every FinanceBench question, with the same tokenizer
(`ragpipe.text.tokenize`) and the same parameters (k1=1.5, b=0.75, Lucene's idf):
rank-bm25's `BM25Okapi.get_scores` with its idf swapped for Lucene's, so the
two must agree on the top 10 and only speed may differ.

    python bench/retrieval.py [--quick] [--json]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import financebench_folder, main, timed  # noqa: E402
from reference_bm25 import LuceneOkapi, top_k  # noqa: E402

from ragpipe.corpus.adapters import read_corpus_questions  # noqa: E402
from ragpipe.corpus.ingest import ingest_folder  # noqa: E402
from ragpipe.corpus.manifest import list_corpora, load_configs, resolve_config  # noqa: E402
from ragpipe.retrieval.chunking import chunk_pages  # noqa: E402
from ragpipe.retrieval.index import K1, B, ChunkIndex  # noqa: E402
from ragpipe.text.tokenize import tokenize  # noqa: E402
from ragpipe.warehouse.settings import corpora_dir  # noqa: E402


def corpus_sample(quick: bool):
    """(chunks, questions): every filing, or the 10 filings most questions ask about (--quick)."""
    manifest = list_corpora(corpora_dir())["financebench"]
    folder = financebench_folder()
    questions = read_corpus_questions(manifest, {p.stem for p in folder.glob("*.pdf")}).questions
    if quick:
        counts: dict[str, int] = {}
        for q in questions:
            for doc in q.golden_docs:
                counts[doc] = counts.get(doc, 0) + 1
        keep = sorted(sorted(counts, key=lambda d: (-counts[d], d))[:10])
        tmp = Path(tempfile.mkdtemp(prefix="bench-retrieval-"))  # a copy of the sample, removed below
        for doc in keep:
            shutil.copy(folder / f"{doc}.pdf", tmp / f"{doc}.pdf")
        folder = tmp
        questions = [q for q in questions if set(q.golden_docs) & set(keep)]
    knobs = resolve_config(manifest, "default", load_configs(corpora_dir()))
    pages = ingest_folder("financebench", folder).pages
    if quick:
        shutil.rmtree(folder)
    return chunk_pages(pages, "financebench", "default", knobs.chunk_size, knobs.chunk_overlap), questions


def run(quick: bool) -> dict:
    chunks, questions = corpus_sample(quick)
    index = ChunkIndex.build(chunks)
    chunk_row = {c: i for i, c in enumerate(chunks["chunk_id"])}
    reference = LuceneOkapi([tokenize(t) or ["\u2205"] for t in chunks["text"]], k1=K1, b=B)
    texts = [q.text for q in questions if any(t in index._df for t in tokenize(q.text))]
    with timed() as ours_t:  # the engine's own path: tokenize, score, take the top 10
        ours = [[chunk_row[h.chunk_id] for h in index.search(text, 10)] for text in texts]
    with timed() as ref_t:  # the same path over rank-bm25's scores
        ref = [top_k(reference.get_scores([t for t in tokenize(text) if t in index._df])) for text in texts]
    overlaps = [len(set(a) & set(b)) / max(1, len(b)) for a, b in zip(ours, ref)]
    return {
        "speedup_vs_rank_bm25": round(ref_t.seconds / ours_t.seconds, 1),
        "top10_overlap": round(float(np.mean(overlaps)), 4),
        "queries": len(texts),
        "chunks": len(chunks),
        "queries_per_s": round(len(texts) / ours_t.seconds, 1),
        "rank_bm25_queries_per_s": round(len(texts) / ref_t.seconds, 2),
    }


if __name__ == "__main__":
    main(
        run,
        "retrieval: bm25s vs rank-bm25 (same tokens, same parameters)",
        __doc__.splitlines()[0],
        "the 10 most-asked filings; under a minute",
    )
