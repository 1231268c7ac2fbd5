"""Engines by name. New engines register here and take their settings as a dict."""

from __future__ import annotations

from typing import Any

from ragpipe.answering.engines.base import Engine, EngineAnswer, RetrievalContext
from ragpipe.answering.engines.extractive import ExtractiveEngine
from ragpipe.answering.engines.http_service import HttpServiceEngine
from ragpipe.answering.engines.import_file import ImportEngine
from ragpipe.answering.engines.openai_chat import OpenAIChatEngine
from ragpipe.answering.retrieving import ENGINE_NAMES, RETRIEVING_ENGINES, answered_from_pair_retrieval

ENGINES = {
    "extractive": ExtractiveEngine,
    "openai": OpenAIChatEngine,
    "http": HttpServiceEngine,
    "import": ImportEngine,
}
assert set(ENGINES) == set(ENGINE_NAMES), "answering/retrieving.py: ENGINE_NAMES names every engine registered here"


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
    "ENGINE_NAMES",
    "answered_from_pair_retrieval",
    "ENGINES",
    "Engine",
    "EngineAnswer",
    "RetrievalContext",
    "make_engine",
]
