"""How runs execute: the named jobs the CLI launches in one process, and the jobs that fan a pair's or
a corpus's shards out over processes (multiprocess) or Celery workers (docs/deploy.md)."""

from dagster import Definitions

from assets.deploy.jobs import (
    IN_PROCESS,
    corpus_on_celery,
    pair_in_processes,
    pair_on_celery,
    regrade_in_processes,
    regrade_on_celery,
)

defs = Definitions(
    jobs=[
        *IN_PROCESS.values(),
        pair_in_processes,
        regrade_in_processes,
        corpus_on_celery,
        pair_on_celery,
        regrade_on_celery,
    ]
)
