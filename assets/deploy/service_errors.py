"""A server a distributed run depends on stopped answering: said in one line that names it.

When Redis or PostgreSQL goes away mid-run, what surfaces is an error several layers deep (a Celery
result backend's retry limit, SQLAlchemy's OperationalError inside Dagster's storage, a run failure
event's stack). This finds the service behind it by where the error came from, and says which one,
at which address (never the password), and what to do.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from ragpipe.cli.orchestrator import ServiceUnavailable

SIGNS = {  # where an error comes from -> the service it means
    "PostgreSQL": ("psycopg2", "sqlalchemy", "dagster_postgres"),
    "Redis": ("redis", "kombu", "celery"),
}
VARIABLES = {"PostgreSQL": "RAGPIPE_POSTGRES_URL", "Redis": "RAGPIPE_REDIS_URL"}


def _address(service: str) -> str:
    url = os.environ.get(VARIABLES[service], "")
    parts = urlsplit(url)
    where = f"{parts.hostname}:{parts.port}" if parts.hostname else "(not set)"
    return f"{where} ({VARIABLES[service]})"


def said(service: str, detail: str) -> ServiceUnavailable:
    from assets.deploy.service_urls import redact

    first = redact(detail.strip().splitlines()[0])[:160] if detail.strip() else "no detail"
    return ServiceUnavailable(
        f"{service} at {_address(service)} stopped answering ({first}): "
        "start it, then run the command again (answers already logged are not asked again)"
    )


def _which(modules_or_paths: list[str]) -> str | None:
    """The service these modules or stack paths belong to, among the ones this run uses (Dagster's own
    SQLite storage raises SQLAlchemy's errors too: without RAGPIPE_POSTGRES_URL they are not PostgreSQL's)."""
    for service, signs in SIGNS.items():
        if not os.environ.get(VARIABLES[service]):
            continue
        for where in modules_or_paths:
            if any(where.startswith(s + ".") or where == s or f"/{s}/" in where for s in signs):
                return service
    return None


def down_in_exception(exc: BaseException) -> ServiceUnavailable | None:
    """The service behind an exception raised out of a run, if one is."""
    seen, todo = set(), [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        service = _which([type(e).__module__])
        if service and (
            "connect" in str(e).lower() or "retries" in str(e).lower() or "Operational" in type(e).__name__
        ):
            return said(service, f"{type(e).__name__}: {e}")
        todo += [e.__cause__, e.__context__]
    return None


def down_in_error_info(error) -> ServiceUnavailable | None:
    """The service behind a run failure event's error (Dagster's SerializableErrorInfo chain)."""
    while error is not None:
        text = f"{error.cls_name}: {error.message}"
        if "connect" in text.lower() or "retry limit" in text.lower():
            service = _which(list(error.stack))
            if service:
                return said(service, text)
        error = error.cause or error.context
    return None
