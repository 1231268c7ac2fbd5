"""The Dagster UI takes orders from its own page on this machine only: an ASGI guard in front of it.

Dagster's webserver answers any Host, runs a GraphQL mutation sent by GET (`/graphql?query=mutation{...}`)
and takes a POST from any Origin, so any web page the user opens could stop a sensor or launch a run (an
`<img>` is enough for a GET) or, by DNS rebinding (a name of the attacker's that points at 127.0.0.1),
read the UI's answers. The labelling page refuses both (review/label_page.py); this puts the same rules
in front of the UI, for HTTP and WebSocket alike:

- every request names this server in its Host: 127.0.0.1, localhost or [::1], on its port;
- a request that can change state (any method but GET, HEAD, OPTIONS; every WebSocket, which can carry
  a mutation) comes from the UI's own page: an Origin, when the client sends one, is this server's, and a
  browser's `Sec-Fetch-Site` is `same-origin` or `none` (typed in the address bar);
- a GraphQL operation sent by GET is a query: a mutation or subscription, or a document that does not
  parse, is refused (405), since the UI itself sends its operations by POST.

Anything else is answered 403 (405 for a GET mutation), in words, and never reaches Dagster.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from graphql import OperationDefinitionNode, OperationType, parse
from graphql.error import GraphQLError

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable, Callable], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")


def allowed_hosts(port: int) -> frozenset[str]:
    """The Host values that name this server (a browser leaves out port 80)."""
    hosts = {f"{name}:{port}" for name in LOCAL_NAMES}
    return frozenset(hosts | (set(LOCAL_NAMES) if port == 80 else set()))


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def only_queries(document: str) -> bool:
    """The GraphQL `document` parses and every operation in it is a query (reads, changes nothing)."""
    try:
        parsed = parse(document)
    except (GraphQLError, RecursionError):
        return False
    operations = [d for d in parsed.definitions if isinstance(d, OperationDefinitionNode)]
    return bool(operations) and all(op.operation is OperationType.QUERY for op in operations)


def refusal(scope: Scope, port: int) -> tuple[int, str] | None:
    """Why the request of `scope` is refused (status, words), or None when it may reach the UI."""
    headers = _headers(scope)
    hosts = allowed_hosts(port)
    if headers.get("host", "") not in hosts:
        return 403, "refused: the Dagster UI answers requests to 127.0.0.1 or localhost on its own port only"
    method = scope.get("method", "GET").upper() if scope["type"] == "http" else "WEBSOCKET"
    if method not in SAFE_METHODS:
        origin = headers.get("origin")
        if origin is not None and origin not in {f"http://{h}" for h in hosts}:
            return 403, f"refused: a request that can change state must come from the UI's own page, not {origin[:80]}"
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, "refused: a request that can change state must come from the UI's own page"
    if method in ("GET", "HEAD") and scope.get("path", "").rstrip("/").endswith("/graphql"):
        for document in parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True).get(
            "query", []
        ):
            if not only_queries(document):
                return 405, "refused: a GraphQL mutation (or a document that does not parse) is taken by POST only"
    return None


class LocalOnly:
    """ASGI middleware: `app` behind `refusal`'s rules, for the server listening on `port`."""

    def __init__(self, app: ASGIApp, port: int):
        self.app, self.port = app, port

    async def __call__(self, scope: Scope, receive: Callable, send: Callable) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        refused = refusal(scope, self.port)
        if refused is None:
            return await self.app(scope, receive, send)
        status, words = refused
        if scope["type"] == "websocket":  # closed before it is accepted: the handshake is answered 403
            await send({"type": "websocket.close", "code": 1008, "reason": words[:120]})
            return None
        body = words.encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
        return None
