"""POST with retries: timeouts, dropped connections, 429 (honouring Retry-After)
and 5xx are retried with capped exponential backoff; anything else, or the
last failure, is an EngineFailure carrying the reason and the raw body.

Whatever the service sends back is redacted before anything reads it: a
service that echoes the Authorization header ("Incorrect API key provided:
Bearer sk-...") in an error or an answer must not put the key into answers,
logs, Parquet or reports."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass

import httpx


class EngineFailure(Exception):
    """The service could not give a usable answer; `raw` keeps what it sent."""

    def __init__(self, reason: str, raw: str | None = None):
        super().__init__(reason)
        self.raw = raw


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0

    def delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                seconds = float(retry_after)
            except ValueError:
                seconds = -1.0
            if math.isfinite(seconds) and seconds >= 0:  # a negative, NaN or infinite Retry-After means backoff
                return min(seconds, self.max_delay)
        return min(self.base_delay * (2**attempt), self.max_delay)


REDACTED = "[REDACTED]"


def secrets_of(headers: dict) -> list[str]:
    """The values a response must never carry back: each credential header, and its token alone."""
    out = []
    for name, value in headers.items():
        if name.lower() in ("authorization", "x-api-key", "api-key") and value:
            out += [value, value.split(" ", 1)[-1]]
    return sorted({s for s in out if len(s) >= 4}, key=len, reverse=True)


def redact(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, REDACTED)
    return text


def post_json(
    client: httpx.Client, url: str, payload: dict, headers: dict, policy: RetryPolicy, sleep=time.sleep
) -> dict:
    """The JSON object the service answered with, after retries."""
    last = "no attempt made"
    secrets = secrets_of(headers)
    for attempt in range(policy.attempts):
        retry_after = None
        try:
            response = client.post(url, json=payload, headers=headers)
        except httpx.TimeoutException as exc:
            last = f"timeout: {type(exc).__name__}"
        except httpx.TransportError as exc:
            last = redact(f"connection error: {type(exc).__name__}: {exc}", secrets)
        else:
            text = redact(response.text, secrets)
            if response.status_code == 429 or response.status_code >= 500:
                last = f"HTTP {response.status_code}: {text[:200]}"
                retry_after = response.headers.get("retry-after")
            elif response.status_code >= 400:
                raise EngineFailure(f"HTTP {response.status_code} (not retried)", text)
            else:
                try:
                    body = json.loads(text)
                except ValueError:
                    raise EngineFailure("malformed response: not JSON", text) from None
                if not isinstance(body, dict):
                    raise EngineFailure("malformed response: not a JSON object", response.text)
                return body
        if attempt + 1 < policy.attempts:
            sleep(policy.delay(attempt, retry_after))
    raise EngineFailure(f"gave up after {policy.attempts} attempts: {last}")
