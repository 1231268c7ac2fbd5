"""Engines by name. New engines register here and take their settings as a dict."""

from __future__ import annotations

from typing import Any

from ragpipe.answering.engines.base import Engine, EngineAnswer, RetrievalContext
from ragpipe.answering.engines.extractive import ExtractiveEngine
from ragpipe.answering.engines.http_service import HttpServiceEngine
from ragpipe.answering.engines.import_file import ImportEngine
from ragpipe.answering.engines.openai_chat import OpenAIChatEngine

ENGINES = {
    "extractive": ExtractiveEngine,
    "openai": OpenAIChatEngine,
    "http": HttpServiceEngine,
    "import": ImportEngine,
}


# engines that answer from the chunks the pair's index ranks (RetrievalContext.search): their answer
# sets are scored on that retrieval; the others retrieve for themselves, or not at all
RETRIEVING_ENGINES = frozenset(name for name, cls in ENGINES.items() if getattr(cls, "uses_pair_retrieval", False))


def answered_from_pair_retrieval(engines) -> bool:
    """Did an answer set (the engines its answers name) answer from the pair's retrieval, so that
    retrieval's scores are its own?"""
    engines = set(engines)
    return bool(engines) and engines <= RETRIEVING_ENGINES


def make_engine(name: str, settings: dict[str, Any] | None = None) -> Engine:
    try:
        cls = ENGINES[name]
    except KeyError:
        raise ValueError(f"unknown engine {name!r}; known: {', '.join(sorted(ENGINES))}") from None
    try:
        return cls(**(settings or {}))
    except TypeError as exc:
        raise ValueError(f"engine {name!r}: bad settings: {exc}") from None


__all__ = [
    "RETRIEVING_ENGINES",
    "answered_from_pair_retrieval",
    "ENGINES",
    "Engine",
    "EngineAnswer",
    "RetrievalContext",
    "make_engine",
]
