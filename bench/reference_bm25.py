"""The reference BM25 the project's index must rank like: rank-bm25's BM25Okapi with Lucene's idf.

rank-bm25 is plain Python over dicts, slow and obviously right; the project's
index (bm25s) uses the same k1, b and idf, so the two must agree on rankings.
"""

from __future__ import annotations

import math

import numpy as np
from rank_bm25 import BM25Okapi


class LuceneOkapi(BM25Okapi):
    """BM25Okapi's scoring with Lucene's idf, log(1 + (N - df + 0.5) / (df + 0.5)), never negative."""

    def _calc_idf(self, nd):
        for word, freq in nd.items():
            self.idf[word] = math.log(1 + (self.corpus_size - freq + 0.5) / (freq + 0.5))


def top_k(scores, k: int = 10) -> list[int]:
    """Indices of the k best positive scores, ties broken by position (as the project's search does)."""
    k = min(k, len(scores))
    best = np.argpartition(-scores, k - 1)[:k] if k else []
    order = sorted(best, key=lambda i: (-float(scores[i]), int(i)))
    return [int(i) for i in order if scores[i] > 0]
