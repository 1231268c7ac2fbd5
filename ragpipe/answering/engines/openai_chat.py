"""An OpenAI-compatible chat-completions engine (llama.cpp server, vLLM, Ollama, hosted APIs).

Retrieval is ours: the top-k chunks become numbered sources, and the model is
asked to answer with [n] citations or decline honestly. Decoding is
deterministic (temperature 0, a fixed seed). The API key is read from the
environment variable named in the settings and never recorded: the recorded
settings name the variable, not its value.
"""

from __future__ import annotations

import os
import re

from ragpipe.answering.engines.base import EngineAnswer, RetrievalContext
from ragpipe.answering.engines.retrying import EngineFailure, RetryPolicy, body_text, engine_client, post_json
from ragpipe.answering.engines.secrets import KeyRefused, checked_key, redact, secrets_of
from ragpipe.answering.engines.usage import usage_of
from ragpipe.corpus.questions import Question

SYSTEM = (
    "You answer questions about a user's documents using only the numbered sources given. "
    "Cite every claim with its source number in square brackets, like [1]. "
    "If the sources do not contain the answer, say: I could not find this in the provided documents."
)
_CITE = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")


def cited_numbers(text: str) -> list[int]:
    out: list[int] = []
    for m in _CITE.finditer(text):
        for n in m.group(1).split(","):
            if int(n) not in out:
                out.append(int(n))
    return out


class OpenAIChatEngine:
    name = "openai"
    uses_pair_retrieval = True

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key_env: str = "OPENAI_API_KEY",
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 512,
        timeout: float = 60.0,
        attempts: int = 4,
        base_delay: float = 0.5,
        max_delay: float = 8.0,
    ):
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key_env = api_key_env
        checked_key(os.environ.get(api_key_env, ""), api_key_env)  # a key that cannot be sent stops the run here
        self.policy = RetryPolicy(attempts, base_delay, max_delay, deadline=timeout)
        self.client = engine_client(timeout)
        self.body = {"model": model, "temperature": temperature, "seed": seed, "max_tokens": max_tokens}
        # recorded with every answer: everything but the key itself
        self.settings = {
            "base_url": base_url,
            "model": model,
            "api_key_env": api_key_env,
            "temperature": temperature,
            "seed": seed,
            "max_tokens": max_tokens,
            "timeout": timeout,
            "attempts": attempts,
        }

    @property
    def answer_set(self) -> str:
        return f"openai:{self.model}"

    def _headers(self) -> dict:
        key = checked_key(os.environ.get(self.api_key_env, ""), self.api_key_env)
        return {"Authorization": f"Bearer {key}"} if key else {}

    def redact(self, text: str) -> str:
        """`text` without the key, however the environment holds it (the run applies this to all it keeps)."""
        held = os.environ.get(self.api_key_env, "")
        try:
            headers = self._headers()
        except KeyRefused:
            headers = {}
        return redact(text, secrets_of(headers, held))

    def answer(self, question: Question, context: RetrievalContext) -> EngineAnswer:
        hits = context.search(question.text)
        sources = [(h.chunk_id, context.doc_id(h.chunk_id), context.text(h.chunk_id)) for h in hits]
        numbered = "\n\n".join(f"[{i}] ({doc})\n{text}" for i, (_, doc, text) in enumerate(sources, 1))
        payload = {
            **self.body,
            "messages": [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": f"Sources:\n\n{numbered or '(none)'}\n\nQuestion: {question.text}"},
            ],
        }
        body = post_json(self.client, self.url, payload, self._headers(), self.policy)
        try:
            content = body["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise EngineFailure("malformed response: no choices[0].message.content", body_text(body)) from None
        if not isinstance(content, str):
            raise EngineFailure("malformed response: content is not text", body_text(body))
        numbers = [n for n in cited_numbers(content) if 1 <= n <= len(sources)]
        docs = []
        for n in numbers:
            if sources[n - 1][1] not in docs:
                docs.append(sources[n - 1][1])
        prompt, completion = usage_of(body)
        return EngineAnswer(
            answer=content,
            citations=docs,
            cited_chunks=[sources[n - 1][0] for n in numbers],
            prompt_tokens=prompt,
            completion_tokens=completion,
        )
