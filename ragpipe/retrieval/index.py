"""BM25 over chunks (bm25s, Lucene's idf), saved to disk and loaded for search.

The index is built from `ragpipe.text.tokenize.tokenize`, the same tokenizer the
engine uses for its support estimate, so "how well does the corpus cover this
question" and "which chunks rank first" agree on what a term is.
"""

from __future__ import annotations

import importlib.abc
import json
import math
import shutil
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ragpipe.text.tokenize import tokenize

if TYPE_CHECKING:
    import bm25s

K1 = 1.5
B = 0.75


FINGERPRINT_FILE = "chunks.fingerprint"


def index_fingerprint(folder: Path) -> str | None:
    """The fingerprint of the chunks the saved index in `folder` was built from, if any."""
    path = folder / FINGERPRINT_FILE
    return path.read_text().strip() if path.is_file() else None


def reuse_index(folders: Iterable[Path], target: Path, fingerprint: str) -> Path | None:
    """Copy into `target` an index another configuration of the corpus built from the same chunks (same
    fingerprint: same pages and chunking knobs; chunk ids name no configuration), rather than build it
    again: configurations that differ only in top_k or the engine share one. Returns the folder copied,
    or None. As in `save`, the fingerprint is written last; a source rewritten meanwhile is not used."""
    for source in sorted(folders):
        if source == target or index_fingerprint(source) != fingerprint:
            continue
        target.mkdir(parents=True, exist_ok=True)
        (target / FINGERPRINT_FILE).unlink(missing_ok=True)
        for path in source.iterdir():
            if path.is_file() and path.name != FINGERPRINT_FILE:
                shutil.copyfile(path, target / path.name)
        if index_fingerprint(source) == fingerprint:
            (target / FINGERPRINT_FILE).write_text(fingerprint)
            return source
    return None


@dataclass
class Hit:
    rank: int
    chunk_id: str
    score: float


# backends bm25s imports whenever they are installed (numba comes with ppi-python, scipy with the rest), and that
# ragpipe never selects: an index is built and scored with numpy (`BM25()`'s defaults, `get_scores`)
_UNUSED_BACKENDS = frozenset({"numba", "scipy.sparse"})


class _Unused(importlib.abc.MetaPathFinder):
    """Refuses the unused backends to one thread, as if they were not installed; other threads import them."""

    def __init__(self) -> None:
        self.thread = threading.get_ident()

    def find_spec(self, name, path=None, target=None):
        if name in _UNUSED_BACKENDS and threading.get_ident() == self.thread:
            raise ModuleNotFoundError(f"No module named {name!r} (not needed by ragpipe's bm25s)", name=name)
        return None


def _bm25s():
    """bm25s, imported on first use (a Dagster process that never searches pays nothing) and without its
    unused backends, whose imports cost each process that loads an index about 0.25 s of the 0.3 s.
    Refused to this thread only, for the length of bm25s's import: a later or concurrent import of numba
    or scipy.sparse elsewhere works as before."""
    if "bm25s" in sys.modules:
        return sys.modules["bm25s"]
    refusal = _Unused()
    sys.meta_path.insert(0, refusal)
    try:
        import bm25s
    finally:
        sys.meta_path.remove(refusal)
    return bm25s


class ChunkIndex:
    """A BM25 index of chunk texts, addressable by chunk id."""

    def __init__(self, model: bm25s.BM25, chunk_ids: list[str]):
        self.model = model
        self.chunk_ids = chunk_ids
        if not chunk_ids:  # a corpus whose every document failed: an index that finds nothing
            self._df, self.n_docs = {}, 0
            return
        scores = model.scores
        indptr = np.asarray(scores["indptr"])
        self._df = {
            tok: int(indptr[i + 1] - indptr[i])
            for tok, i in model.vocab_dict.items()
            if tok and i + 1 < len(indptr)  # bm25s adds an empty token past the matrix
        }
        self.n_docs = len(chunk_ids)

    @classmethod
    def build(cls, chunks: pd.DataFrame) -> ChunkIndex:
        tokens = [tokenize(t) or ["\u2205"] for t in chunks["text"]]  # an empty chunk keeps its slot
        # no chunk at all (every document failed to read): bm25s cannot index nothing, so it indexes one
        # placeholder that no chunk id names; the index finds nothing and the run goes on to say so
        tokens = tokens or [["\u2205"]]
        model = _bm25s().BM25(k1=K1, b=B, method="lucene")
        model.index(tokens, show_progress=False)
        return cls(model, list(chunks["chunk_id"]))

    def save(self, folder: Path, fingerprint: str | None = None) -> None:
        """Save the index; `fingerprint` (of the chunks it was built from) is written last, so a
        crash mid-save leaves no fingerprint and the next run rebuilds."""
        folder.mkdir(parents=True, exist_ok=True)
        (folder / FINGERPRINT_FILE).unlink(missing_ok=True)
        self.model.save(str(folder))
        (folder / "chunk_ids.json").write_text(json.dumps(self.chunk_ids))
        if fingerprint:
            (folder / FINGERPRINT_FILE).write_text(fingerprint)

    @classmethod
    def load(cls, folder: Path) -> ChunkIndex:
        model = _bm25s().BM25.load(str(folder))
        return cls(model, json.loads((folder / "chunk_ids.json").read_text()))

    @property
    def vocabulary_size(self) -> int:
        return len(self._df)

    def idf(self, token: str) -> float:
        """Lucene idf; a token the corpus never uses gets the highest idf there is."""
        df = self._df.get(token, 0)
        return math.log(1 + (self.n_docs - df + 0.5) / (df + 0.5))

    def search(self, query: str, k: int) -> list[Hit]:
        tokens = [t for t in tokenize(query) if t in self._df]
        if not tokens or not self.chunk_ids:
            return []
        scores = self.model.get_scores(tokens)
        k = min(k, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        # ties broken by chunk order so results are deterministic
        ranked = sorted(top, key=lambda i: (-float(scores[i]), int(i)))
        return [
            Hit(rank=r + 1, chunk_id=self.chunk_ids[i], score=float(scores[i]))
            for r, i in enumerate(ranked)
            if scores[i] > 0
        ]
