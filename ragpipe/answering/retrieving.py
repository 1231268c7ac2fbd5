"""The engines' names, and which of them answer from the pair's own retrieval, without importing the
engines.

Scorecards and failure attribution ask this for every pair, and `ragpipe scorecard` must not load
every engine (bm25s, scipy, httpx) to answer it. `tests/unit/answering/test_engines_http.py` keeps the list equal to
the engines whose class says `uses_pair_retrieval`.
"""

from __future__ import annotations

# every engine `make_engine` knows (answering/engines/__init__.py registers a class under each; a test
# keeps the two equal), for the commands that name them without loading them
ENGINE_NAMES = ("openai", "http", "import", "extractive")

# engines that answer from the chunks the pair's index ranks (RetrievalContext.search): their answer
# sets are scored on that retrieval; the others retrieve for themselves, or not at all
RETRIEVING_ENGINES = frozenset({"extractive", "openai"})


def answered_from_pair_retrieval(engines) -> bool:
    """Did an answer set (the engines its answers name) answer from the pair's retrieval, so that
    retrieval's scores are its own?"""
    engines = set(engines)
    return bool(engines) and engines <= RETRIEVING_ENGINES
