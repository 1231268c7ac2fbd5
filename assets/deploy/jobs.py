"""Asset selections, and jobs that fan a pair's shards out over processes.

The default executor runs everything in one process, which is fastest for a
small corpus. The `*_in_processes` jobs use Dagster's multiprocess executor:
answer and grade shards (`RAGPIPE_SHARDS`) run side by side, each writing
Parquet, while DuckDB steps wait for the one writer's lock. The `*_on_celery`
jobs run the same steps on Celery workers (docs/deploy.md).
"""

import os

from dagster import AssetSelection, define_asset_job, multiprocess_executor
from dagster_celery import celery_executor

from assets.deploy.celery import REDIS, worker_settings
from assets.shared.stages import ANSWERING, CORPUS_LEVEL, GRADED, RESCORED

CORPUS_ASSETS = AssetSelection.assets(*CORPUS_LEVEL)
PAIR_ASSETS = AssetSelection.assets(*ANSWERING, *GRADED)
REGRADE_ASSETS = AssetSelection.assets(*GRADED)
# people's labels changed, the grades did not: scorecards (people's accuracy) and what reads them, never a grading
RESCORE_ASSETS = AssetSelection.assets(*RESCORED)

# The same selections as named jobs in this process (the default executor): `ragpipe run` launches
# `corpus` then `pair`, `ragpipe regrade` launches `regrade`, a labels change `rescore`, so the run list
# reads like the commands; the UI can launch them too (a partition, then Launch).
corpus_job = define_asset_job(
    "corpus",
    selection=CORPUS_ASSETS,
    description="Ingest, questions and needles of one corpus (`ragpipe run`, first run), in one process.",
)
pair_job = define_asset_job(
    "pair",
    selection=PAIR_ASSETS,
    description="Chunks to scorecards and the review report for one (corpus, configuration) (`ragpipe run`).",
)
regrade_job = define_asset_job(
    "regrade",
    selection=REGRADE_ASSETS,
    description="Grades, scorecards, agreement, the delta and the review report of one (corpus, configuration) "
    "from the stored answers (`ragpipe regrade`): what a rules change re-materializes.",
)
rescore_job = define_asset_job(
    "rescore",
    selection=RESCORE_ASSETS,
    description="Scorecards, agreement and the review report of one (corpus, configuration) after people's "
    "labels changed; records no grading (`ragpipe labels import`, `ragpipe label`).",
)
IN_PROCESS = {job.name: job for job in (corpus_job, pair_job, regrade_job, rescore_job)}

# Each step process is forked from a server that has imported the definitions and Dagster's
# storage once (`forkserver`), instead of a fresh interpreter importing them for every step
# (`spawn`, Dagster's default): about 2.5 s less per step (docs/performance.md). The server
# keeps the environment it started with, so `assets.runs.runner` stops it after each run.
# RAGPIPE_STEP_START=spawn goes back to Dagster's default (where forkserver is missing, or to compare).
# The last one sets aside from the cyclic collector what the others imported (assets/deploy/set_aside.py).
PRELOADED = ["assets.definitions", "dagster._core.storage.sqlite_storage", "assets.deploy.set_aside"]
# pyarrow's jemalloc starts a background thread on import; a step forked from the server while that thread
# held its lock hung on it forever (seen once in CI: the forked process waiting on a futex, the server's
# other thread `jemalloc_bg_thd`). The processes started from here run without it: memory is returned on
# the allocation path instead.
os.environ.setdefault("JE_ARROW_MALLOC_CONF", "background_thread:false")


def step_start(method: str | None = None) -> dict:
    method = method or os.environ.get("RAGPIPE_STEP_START", "forkserver")
    if method == "spawn":
        return {"spawn": {}}
    if method == "forkserver":
        return {"forkserver": {"preload_modules": PRELOADED}}
    raise ValueError(f"RAGPIPE_STEP_START={method!r}: give forkserver (the default) or spawn")


_processes = multiprocess_executor.configured({"max_concurrent": 0, "start_method": step_start()})  # 0: a step per core

pair_in_processes = define_asset_job(
    "pair_in_processes",
    selection=PAIR_ASSETS,
    executor_def=_processes,
    description="Chunks to scorecards for one (corpus, configuration), answer and grade shards in parallel processes.",
)
regrade_in_processes = define_asset_job(
    "regrade_in_processes",
    selection=REGRADE_ASSETS,
    executor_def=_processes,
    description="Grades to deltas for one (corpus, configuration), grade shards in parallel processes.",
)

# the same steps on Celery workers (docs/deploy.md): shard steps on any worker, the steps that open
# DuckDB on the warehouse host's queue (assets/deploy/queues.py); Redis from RAGPIPE_REDIS_URL where the run is
# launched (the CLI or the UI: nothing to type in the launchpad)
_celery = celery_executor.configured(
    {"broker": {"env": REDIS}, "backend": {"env": REDIS}, "config_source": worker_settings()}
)
corpus_on_celery = define_asset_job(
    "corpus_on_celery",
    selection=CORPUS_ASSETS,
    executor_def=_celery,
    description="Ingest, questions and needles of one corpus, the PDFs parsed in shards on Celery workers.",
)
pair_on_celery = define_asset_job(
    "pair_on_celery",
    selection=PAIR_ASSETS,
    executor_def=_celery,
    description="Chunks to scorecards for one (corpus, configuration), its steps on Celery workers.",
)
regrade_on_celery = define_asset_job(
    "regrade_on_celery",
    selection=REGRADE_ASSETS,
    executor_def=_celery,
    description="Grades to deltas for one (corpus, configuration), its steps on Celery workers.",
)
