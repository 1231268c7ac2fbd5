"""POST with retries: timeouts, dropped connections, 429 (honouring Retry-After)
and 5xx are retried with capped exponential backoff; anything else, or the
last failure, is an EngineFailure carrying the reason and the raw body.

Each attempt has a total deadline (`RetryPolicy.deadline`), not only httpx's
per-read timeout: a server that sends a byte every few seconds never times
out a read, so a watchdog shuts the attempt's connection down when its time
is up. Only a 2xx reply is an answer (a redirect is not followed, and its
body is not an answer), and a body is read up to `MAX_BODY_BYTES` as decoded:
one gzip or deflate layer is inflated here, bounded as it streams, and a
stacked or unknown Content-Encoding is refused (body_decoding.py).

Whatever the service sends back is made valid text and redacted, from its
decoded form, before anything reads it (see secrets.py).
"""

from __future__ import annotations

import json
import math
import threading
import time
from dataclasses import dataclass

import httpx

from ragpipe.answering.engines.body_decoding import ACCEPTED_ENCODINGS, BodyRefused, Inflater
from ragpipe.answering.engines.secrets import redact, scrub, secrets_of, stored_body
from ragpipe.inputs.text import valid_json

MAX_BODY_BYTES = 16 * 1024 * 1024  # no chat or RAG reply is near this; a body past it is refused, not read on


class EngineFailure(Exception):
    """The service could not give a usable answer; `raw` keeps what it sent."""

    def __init__(self, reason: str, raw: str | None = None, status: int | None = None):
        super().__init__(reason)
        self.raw = raw
        self.status = status  # the HTTP status that ended it, when one did


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0
    deadline: float = 60.0  # seconds one attempt may take in all, however the bytes trickle in

    def delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                seconds = float(retry_after)
            except ValueError:
                seconds = -1.0
            if math.isfinite(seconds) and seconds >= 0:  # a negative, NaN or infinite Retry-After means backoff
                return min(seconds, self.max_delay)
        return min(self.base_delay * (2**attempt), self.max_delay)


def body_text(body: dict) -> str:
    """A decoded (already made valid and redacted) reply as the raw text an answer row keeps."""
    return json.dumps(body, ensure_ascii=False)[:2000]


def engine_client(timeout: float) -> httpx.Client:
    """The engines' HTTP client: a connection per request, so the deadline's watchdog always holds the
    socket it may have to shut (a pooled connection is opened before the request and unseen by it)."""
    return httpx.Client(timeout=timeout, limits=httpx.Limits(max_keepalive_connections=0))


class _Deadline:
    """Shuts an attempt's connection down once `seconds` have passed: the blocked read then ends."""

    def __init__(self, seconds: float):
        self.expired = False
        self._sockets: list = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def trace(self, name: str, info: dict) -> None:
        """httpcore's trace hook: keep the socket of each connection the attempt opens."""
        if name in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if sock is not None:
                with self._lock:
                    self._sockets.append(sock)
                    if self.expired:
                        self._shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                self._shut(sock)

    @staticmethod
    def _shut(sock) -> None:
        try:
            sock.shutdown(2)  # SHUT_RDWR: wakes a thread blocked reading it
        except OSError:
            pass

    def __enter__(self):
        self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self._timer.cancel()


def _post(client: httpx.Client, url: str, payload: dict, headers: dict, deadline: _Deadline):
    """(status, headers, body text) of one attempt, the body read in full up to MAX_BODY_BYTES, counted
    as decoded: the raw bytes are inflated here, never more than the cap (body_decoding.py)."""
    headers = {"Accept-Encoding": ACCEPTED_ENCODINGS, **headers}
    with client.stream("POST", url, json=payload, headers=headers, extensions={"trace": deadline.trace}) as response:
        inflate = Inflater(response.headers.get("content-encoding", ""), MAX_BODY_BYTES)
        chunks = []
        for chunk in response.iter_raw():
            chunks.append(inflate.feed(chunk))
            if deadline.expired:
                raise httpx.ReadTimeout("deadline passed while reading the body")
        chunks.append(inflate.finish())
        body = b"".join(chunks)
        try:
            text = body.decode(response.charset_encoding or "utf-8", errors="replace")
        except LookupError:  # a charset Python does not know: read it as UTF-8
            text = body.decode("utf-8", errors="replace")
        return response.status_code, response.headers, text


def post_json(
    client: httpx.Client, url: str, payload: dict, headers: dict, policy: RetryPolicy, sleep=time.sleep
) -> dict:
    """The JSON object the service answered with (strings made valid and redacted), after retries."""
    last = "no attempt made"
    secrets = secrets_of(headers)
    for attempt in range(policy.attempts):
        retry_after = None
        with _Deadline(policy.deadline) as deadline:
            try:
                status, reply_headers, text = _post(client, url, payload, headers, deadline)
            except BodyRefused as exc:
                raise EngineFailure(str(exc)) from None
            except httpx.TimeoutException as exc:
                status, last = None, f"timeout: {type(exc).__name__}"
            except httpx.TransportError as exc:
                status = None
                last = redact(f"connection error: {type(exc).__name__}: {exc}", secrets)
            if status is None and deadline.expired:
                last = f"timeout: no complete reply within the {policy.deadline:g} s deadline"
        if status is not None:
            kept = stored_body(text, secrets)
            if status == 429 or status >= 500:
                last = f"HTTP {status}: {kept[:200]}"
                retry_after = reply_headers.get("retry-after")
            elif status >= 300:
                reason = "redirects are not followed" if status < 400 else "not retried"
                raise EngineFailure(f"HTTP {status} ({reason})", kept, status)
            elif status < 200:
                raise EngineFailure(f"HTTP {status}: not a final reply", kept)
            else:
                try:
                    body = json.loads(text)
                except (ValueError, RecursionError):
                    raise EngineFailure("malformed response: not JSON", kept) from None
                if not isinstance(body, dict):
                    raise EngineFailure("malformed response: not a JSON object", kept)
                return scrub(valid_json(body), secrets)
        if attempt + 1 < policy.attempts:
            sleep(policy.delay(attempt, retry_after))
    raise EngineFailure(f"gave up after {policy.attempts} attempts: {last}")
