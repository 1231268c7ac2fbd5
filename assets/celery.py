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
    url = env.get(REDIS)
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
