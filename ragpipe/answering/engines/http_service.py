"""An external RAG service that retrieves for itself.

Contract: POST {"question_id": "...", "question": "..."} to the configured URL;
the service answers 200 with {"answer": "...", "citations": ["doc-id", ...]}, and may add
{"usage": {"prompt_tokens": N, "completion_tokens": M}} for what its model spent.
Failures are retried like the chat engine's; a body without `answer` is an
error with the raw body kept.
"""

from __future__ import annotations

from ragpipe.answering.engines.base import EngineAnswer, RetrievalContext
from ragpipe.answering.engines.retrying import EngineFailure, RetryPolicy, body_text, engine_client, post_json
from ragpipe.answering.engines.usage import usage_of
from ragpipe.corpus.questions import Question


class HttpServiceEngine:
    name = "http"

    def __init__(
        self,
        url: str,
        timeout: float = 60.0,
        attempts: int = 4,
        base_delay: float = 0.5,
        max_delay: float = 8.0,
        name: str = "http",
    ):
        self.url = url
        self.policy = RetryPolicy(attempts, base_delay, max_delay, deadline=timeout)
        self.client = engine_client(timeout)
        self.answer_set = name
        self.settings = {"url": url, "timeout": timeout, "attempts": attempts}

    def answer(self, question: Question, context: RetrievalContext) -> EngineAnswer:
        body = post_json(
            self.client, self.url, {"question_id": question.id, "question": question.text}, {}, self.policy
        )
        if not isinstance(body.get("answer"), str):
            raise EngineFailure("malformed response: no string `answer`", body_text(body))
        citations = body.get("citations") or []
        if not isinstance(citations, list):
            raise EngineFailure("malformed response: `citations` is not a list", body_text(body))
        prompt, completion = usage_of(body)
        return EngineAnswer(
            answer=body["answer"],
            citations=[str(c) for c in citations],
            prompt_tokens=prompt,
            completion_tokens=completion,
        )
