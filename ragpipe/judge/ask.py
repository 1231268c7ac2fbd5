"""Ask a judge about the answers still missing a judgment: any OpenAI-compatible chat endpoint.

The same client code and key rules as the answering engines (answering/engines/retrying.py and
secrets.py): the key is read from the variable the configuration names, checked before it is sent,
never stored and never printed; every reply is redacted after decoding; timeouts, 429 and 5xx are
retried with backoff. `concurrency` requests are in flight at once. A cap on calls or cost stops
asking with a clear reason; an endpoint that fails leaves its answers unjudged (their rule-based
verdicts stand) and says how many and why.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

from ragpipe.answering.engines.retrying import EngineFailure, RetryPolicy, engine_client, post_json
from ragpipe.answering.engines.secrets import KeyRefused, checked_key, redact, secrets_of
from ragpipe.answering.engines.usage import usage_of
from ragpipe.corpus.questions import Question
from ragpipe.judge.config import JudgeConfig, JudgeIdentity
from ragpipe.judge.judgment import JudgmentRecord, gold_for_judge
from ragpipe.judge.prompt import messages
from ragpipe.judge.reply import MAX_REPLY_CHARS, JudgeReply, allowed_verdicts, no_reply, read_reply

MAX_STORED_CHARS = MAX_REPLY_CHARS  # of a raw reply: what was not read is not kept either
DECIDES_NO_VERDICT = "transport: what the judge replied is stored data; apply.py decides what it makes of it"


class NoReply(EngineFailure):
    """A 200 that is no finished reply (cut short, no choice, no content): a glitch, not a judgment. Nothing
    is stored, so the answer is asked about again on the next run. `tokens`: what the call still cost."""

    def __init__(self, reason: str, tokens: tuple[int | None, int | None] = (None, None)):
        super().__init__(reason)
        self.tokens = tokens


@dataclass
class Asked:
    """What one round of asking came to."""

    judgments: list[JudgmentRecord] = field(default_factory=list)
    calls: int = 0
    errors: int = 0
    first_error: str | None = None
    stopped: str | None = None  # the cap that stopped asking, in words
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    unjudged: int = 0  # answers left without a judgment (errors and the cap)

    def summary(self) -> str:
        parts = [f"judge: {self.calls} call(s), {len(self.judgments)} judgment(s) stored"]
        parts.append(f"{self.prompt_tokens + self.completion_tokens} tokens, cost {self.cost:.4f}")
        if self.unjudged:
            why = self.stopped or f"{self.errors} error(s), first: {self.first_error}"
            parts.append(f"{self.unjudged} answer(s) unjudged ({why}): their rule-based verdicts stand")
        return "; ".join(parts)


_SCHEMA_REFUSED = (
    "the server refused the request; if it does not take OpenAI's `response_format: json_schema`, set "
    "`response_format: none` in judge {name}'s entry (the reply is then read without the schema)"
)


def stored_raw(raw: str) -> str:
    """A reply as stored: whole up to MAX_STORED_CHARS, cut there and saying so past it."""
    if len(raw) <= MAX_STORED_CHARS:
        return raw
    return raw[:MAX_STORED_CHARS] + f"\n[cut: {len(raw):,} characters, the first {MAX_STORED_CHARS:,} kept]"


def request_body(config: JudgeConfig, question: Question, answer: str) -> dict:
    """The chat-completions body that asks `config`'s model about one answer (also the batch file's).
    With `response_format: json_schema` (the default) the server is asked to hold its reply to the
    schema, the verdicts limited to those the question's kind allows."""
    body = {
        "model": config.model,
        "temperature": config.temperature,
        "seed": config.seed,
        "max_tokens": config.max_tokens,
        "messages": messages(question.kind, question.text, gold_for_judge(question), answer),
    }
    if config.response_format == "json_schema":
        body["response_format"] = reply_schema(question.kind)
    return body


def reply_schema(kind: str) -> dict:
    """OpenAI's schema-enforced response format for one judgment of a question of `kind`."""
    schema = {
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": list(allowed_verdicts(kind))},
            "reason": {"type": "string"},
        },
        "required": ["verdict", "reason"],
        "additionalProperties": False,
    }
    return {"type": "json_schema", "json_schema": {"name": "judgment", "strict": True, "schema": schema}}


def judgment_of(
    identity: JudgeIdentity,
    question_id: str,
    key: str,
    body: dict,
    latency_ms: float | None,
    source: str,
    config: JudgeConfig | None = None,
    kind: str | None = None,
) -> JudgmentRecord:
    """A chat-completions reply `body` as a judgment (unparsed, saying why, when it decides nothing;
    `kind`, when known, refuses a verdict the question's kind does not allow: apply.py does it again).
    Raises NoReply for a body that is no finished reply: that is not stored as a judgment."""
    why = no_reply(body)
    if why is not None:
        raise NoReply(why, usage_of(body) if isinstance(body, dict) else (None, None))
    content = body["choices"][0]["message"]["content"]
    enforced = config is not None and config.response_format == "json_schema"
    reply = read_reply(content, kind, enforced)
    raw = content
    prompt, completion = usage_of(body)
    return JudgmentRecord(
        judge_id=identity.id,
        input_key=key,
        judge=identity.name,
        identity=identity.model_dump_json(),
        question_id=question_id,
        verdict=reply.verdict,
        reason=reply.reason if isinstance(reply, JudgeReply) else reply.why,
        raw=stored_raw(raw),
        prompt_tokens=prompt,
        completion_tokens=completion,
        latency_ms=latency_ms,
        source=source,
        cost=config.cost(prompt or 0, completion or 0) if config is not None else None,
    )


def ask_missing(
    config: JudgeConfig,
    identity: JudgeIdentity,
    pending: list[tuple[Question, str, str]],
    progress: Callable[[Asked, int], None] | None = None,
    arrived: Callable[[JudgmentRecord], None] | None = None,
) -> Asked:
    """Ask the judge about each (question, answer, input key) of `pending`, `concurrency` at a time, each
    judgment handed to `arrived` as it comes (judge/reply_log.py keeps it); a recorded judge is never asked
    (its verdicts come by `ragpipe judge import`)."""
    asked = Asked()
    if config.recorded:
        asked.unjudged = len(pending)
        asked.stopped = (
            f"judge {config.name} is recorded: it is never asked, its verdicts come by `ragpipe judge import`"
        )
        return asked
    held = os.environ.get(config.api_key_env, "")
    try:
        key = checked_key(held, config.api_key_env)
    except KeyRefused as exc:
        asked.errors, asked.first_error, asked.unjudged = len(pending), str(exc), len(pending)
        return asked
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    secrets = secrets_of(headers, held)
    url = config.base_url.rstrip("/") + "/chat/completions"
    policy = RetryPolicy(config.attempts, deadline=config.timeout)
    client = engine_client(config.timeout)

    def one(item: tuple[Question, str, str]) -> JudgmentRecord:
        question, answer, input_key = item
        start = time.perf_counter()
        try:
            body = post_json(client, url, request_body(config, question, answer), headers, policy)
        except EngineFailure as exc:
            if exc.status == 400 and config.response_format == "json_schema":
                raise EngineFailure(f"{exc}: {_SCHEMA_REFUSED.format(name=config.name)}", exc.raw, 400) from None
            raise
        latency = (time.perf_counter() - start) * 1000
        return judgment_of(identity, question.id, input_key, body, latency, "api", config, question.kind)

    queue = list(pending)
    with ThreadPoolExecutor(max_workers=config.concurrency) as pool:
        running: set = set()
        while queue or running:
            while queue and len(running) < config.concurrency and asked.stopped is None:
                if config.max_calls is not None and asked.calls >= config.max_calls:
                    asked.stopped = f"the cap of {config.max_calls} call(s) per run was reached"
                    break
                if config.max_cost is not None and asked.cost >= config.max_cost:
                    asked.stopped = f"the cap of {config.max_cost:g} in cost per run was reached"
                    break
                asked.calls += 1
                running.add(pool.submit(one, queue.pop(0)))
            if asked.stopped is not None and not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    judgment = future.result()
                except EngineFailure as exc:
                    if isinstance(exc, NoReply):  # paid for, though it decides nothing
                        asked.prompt_tokens += exc.tokens[0] or 0
                        asked.completion_tokens += exc.tokens[1] or 0
                        asked.cost = config.cost(asked.prompt_tokens, asked.completion_tokens)
                    asked.errors += 1
                    asked.first_error = asked.first_error or redact(str(exc), secrets)
                    continue
                asked.judgments.append(judgment)
                if arrived is not None:
                    arrived(judgment)
                asked.prompt_tokens += judgment.prompt_tokens or 0
                asked.completion_tokens += judgment.completion_tokens or 0
                asked.cost = config.cost(asked.prompt_tokens, asked.completion_tokens)
            if progress is not None:
                progress(asked, len(pending))
    asked.judgments.sort(key=lambda j: j.input_key)
    asked.unjudged = len(pending) - len(asked.judgments)
    return asked
