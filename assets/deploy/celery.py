"""Celery's settings for ragpipe's steps, one place for the launching process and the workers.

Redis (`RAGPIPE_REDIS_URL`) is broker and result backend. A step's task is acknowledged only when it
has finished (`task_acks_late`), and a worker takes one task at a time (`worker_prefetch_multiplier`
1): a worker killed mid-step leaves its task unacknowledged, and Redis hands it to another worker once
`visibility_timeout` (`RAGPIPE_CELERY_REDELIVER`, seconds, default 300) has passed since it was taken.
That timeout must exceed the longest step, or a step still running is handed out twice.
"""

from __future__ import annotations

import os

from ragpipe.cli.orchestrator import ServiceUnavailable

REDIS, REDELIVER = "RAGPIPE_REDIS_URL", "RAGPIPE_CELERY_REDELIVER"


class CeleryNotConfigured(ServiceUnavailable):
    """`--executor celery` without a broker to send steps to: said in one line."""


def redis_url(env=os.environ) -> str:
    from assets.deploy.service_urls import checked_url

    url = checked_url(REDIS, env)
    if not url:
        raise CeleryNotConfigured(
            f"--executor celery needs {REDIS} (e.g. redis://127.0.0.1:6379/0) and workers serving it: docs/deploy.md"
        )
    return url


def worker_settings(env=os.environ) -> dict:
    """What every worker and the launching app agree on, besides the broker."""
    return {
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "broker_transport_options": {"visibility_timeout": int(env.get(REDELIVER, "300"))},
        "result_backend_transport_options": {"visibility_timeout": int(env.get(REDELIVER, "300"))},
        "broker_connection_retry_on_startup": True,
    }


def unserved_queues(queues: list[str], env=os.environ, wait: float | None = None) -> list[str]:
    """The queues among `queues` that no running worker serves, asked of the workers themselves (Celery's
    `inspect().active_queues()`), again until each has one or `wait` seconds (RAGPIPE_WORKER_WAIT,
    default 60: a bound for a worker still starting, not a guess at a speed) have passed. A run with a
    step on a queue nobody serves would wait forever and then say "failed: None"."""
    import time

    from celery import Celery

    if wait is None:
        from ragpipe.warehouse.lock import seconds_setting

        wait = seconds_setting("RAGPIPE_WORKER_WAIT", "60", 3600, env)
    app = Celery(broker=redis_url(env))
    try:
        deadline = time.monotonic() + wait
        while True:
            replies = app.control.inspect(timeout=1.0).active_queues() or {}
            served = {q.get("name") for found in replies.values() for q in found or []}
            missing = [q for q in queues if q not in served]
            if not missing or time.monotonic() >= deadline:
                return missing
    finally:
        app.close()
