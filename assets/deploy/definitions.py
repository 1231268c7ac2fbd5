"""How runs execute: the named jobs the CLI launches in one process, and the jobs that fan a pair's or
a corpus's shards out over processes (multiprocess) or Celery workers (docs/deploy.md); and the sensor that
names a run the UI launched (run_names.py)."""

from dagster import Definitions

from assets.deploy.jobs import (
    IN_PROCESS,
    corpus_on_celery,
    pair_in_processes,
    pair_on_celery,
    regrade_in_processes,
    regrade_on_celery,
)
from assets.deploy.run_names import name_ui_runs

defs = Definitions(
    jobs=[
        *IN_PROCESS.values(),
        pair_in_processes,
        regrade_in_processes,
        corpus_on_celery,
        pair_on_celery,
        regrade_on_celery,
    ],
    sensors=[name_ui_runs],
)
