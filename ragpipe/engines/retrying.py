"""POST with retries: timeouts, dropped connections, 429 (honouring Retry-After)
and 5xx are retried with capped exponential backoff; anything else, or the
last failure, is an EngineFailure carrying the reason and the raw body."""

from __future__ import annotations

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
                return min(float(retry_after), self.max_delay)
            except ValueError:
                pass
        return min(self.base_delay * (2 ** attempt), self.max_delay)


def post_json(client: httpx.Client, url: str, payload: dict, headers: dict, policy: RetryPolicy, sleep=time.sleep) -> dict:
    """The JSON object the service answered with, after retries."""
    last = "no attempt made"
    for attempt in range(policy.attempts):
        retry_after = None
        try:
            response = client.post(url, json=payload, headers=headers)
        except httpx.TimeoutException as exc:
            last = f"timeout: {type(exc).__name__}"
        except httpx.TransportError as exc:
            last = f"connection error: {type(exc).__name__}: {exc}"
        else:
            if response.status_code == 429 or response.status_code >= 500:
                last = f"HTTP {response.status_code}: {response.text[:200]}"
                retry_after = response.headers.get("retry-after")
            elif response.status_code >= 400:
                raise EngineFailure(f"HTTP {response.status_code} (not retried)", response.text)
            else:
                try:
                    body = response.json()
                except ValueError:
                    raise EngineFailure("malformed response: not JSON", response.text) from None
                if not isinstance(body, dict):
                    raise EngineFailure("malformed response: not a JSON object", response.text)
                return body
        if attempt + 1 < policy.attempts:
            sleep(policy.delay(attempt, retry_after))
    raise EngineFailure(f"gave up after {policy.attempts} attempts: {last}")
