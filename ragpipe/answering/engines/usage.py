"""Tokens an endpoint says an answer cost, read the one way OpenAI-compatible servers report them.

`{"usage": {"prompt_tokens": 812, "completion_tokens": 41, ...}}` (OpenAI, vLLM, llama.cpp, Ollama's
OpenAI API); a RAG service or an imported file may carry the same object. A count that is missing, not a
whole number, negative, or past what a table's 64-bit column holds is no count: None, never a guess (and
never 0, which would read as free). A count of 10**23 once failed the run that stored it, and every later
run of the pair, from the answer log.
"""

from __future__ import annotations

MAX_COUNT = 2**63 - 1  # a BIGINT's largest


def _count(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT else None


def usage_of(body) -> tuple[int | None, int | None]:
    """(prompt tokens, completion tokens) of a response body or answer line, as far as it says."""
    usage = body.get("usage") if isinstance(body, dict) else None
    if not isinstance(usage, dict):
        return None, None
    return _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens"))
