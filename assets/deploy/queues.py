"""Which Celery queue a step goes to (`ragpipe run --executor celery`, docs/deploy.md).

DuckDB has one writer, and the file lives on the warehouse's host: every step that opens it goes to
the `warehouse` queue, which only that host's worker serves. The shard steps (answer and grade shards,
Parquet to Parquet, no warehouse connection) stay on Celery's default `dagster` queue, which any worker
serves. Other executors ignore the tag.
"""

WAREHOUSE_QUEUE, SHARD_QUEUE = "warehouse", "dagster"
ON_WAREHOUSE_HOST = {"dagster-celery/queue": WAREHOUSE_QUEUE}


def ran_on() -> dict:
    """Which worker ran a step (host, process, and the worker's name where one was given): step metadata."""
    import os
    import socket

    return {
        "worker_host": socket.gethostname(),
        "worker_pid": os.getpid(),
        "worker": os.environ.get("RAGPIPE_WORKER", ""),
    }
