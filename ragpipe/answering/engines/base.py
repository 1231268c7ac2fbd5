"""The engine interface: the system under test answers one question at a time.

An engine gets the question and a retrieval context (our BM25 chunk index,
which it may ignore if it retrieves for itself) and returns an answer with
the documents it cites. Errors are answers too (`error` set), so a failing
engine never loses the rest of a run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import pandas as pd
from pydantic import BaseModel, Field

from ragpipe.corpus.questions import Question

if TYPE_CHECKING:  # annotations only: the index (bm25s, scipy) is loaded by what builds one
    from ragpipe.retrieval.index import ChunkIndex, Hit


class EngineAnswer(BaseModel):
    answer: str = ""
    citations: list[str] = Field(default_factory=list, description="cited document ids, in [n] order")
    cited_chunks: list[str] = Field(default_factory=list)
    error: str | None = None
    latency_ms: float | None = Field(None, description="as reported by an imported answer; otherwise measured")
    prompt_tokens: int | None = Field(None, description="as the endpoint reports them (usage), else None")
    completion_tokens: int | None = None


@dataclass
class RetrievalContext:
    index: ChunkIndex
    chunks: pd.DataFrame  # indexed by chunk_id
    top_k: int

    def search(self, query: str) -> list[Hit]:
        return self.index.search(query, self.top_k)

    def text(self, chunk_id: str) -> str:
        return self.chunks.at[chunk_id, "text"]

    def doc_id(self, chunk_id: str) -> str:
        return self.chunks.at[chunk_id, "doc_id"]


class Engine(Protocol):
    name: str
    settings: dict[str, Any]

    def answer(self, question: Question, context: RetrievalContext) -> EngineAnswer: ...
