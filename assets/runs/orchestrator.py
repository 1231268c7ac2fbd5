"""The library's Orchestrator, implemented with Dagster: how the `ragpipe` command materializes.

Runs use the Dagster instance at $DAGSTER_HOME (default warehouse/dagster_home),
where `dagster dev` finds their history. A run's settings become the `project`
resource's configuration (in-process runs) or its run config (multiprocess
runs), never environment variables.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from dagster import DagsterInstance
from filelock import FileLock

from assets.deploy.instance import write_instance_yaml
from assets.deploy.service_errors import down_in_error_info, down_in_exception
from assets.runs.runner import (
    busy_in,
    failed_money_checks,
    failure_in,
    flips_said,
    judge_dropped_said,
    judge_said,
    pairs_stopped,
    regrade_in_one_run,
    regrade_pair,
    rescore_pair,
    run_corpus,
    run_corpus_stages,
    run_failures,
    run_pair_on_celery,
)
from assets.shared.resources import default_resources
from ragpipe.cli.orchestrator import Outcome, RunSettings
from ragpipe.warehouse.settings import warehouse_dir


def dagster_instance() -> DagsterInstance:
    """The instance at $DAGSTER_HOME, its dagster.yaml written from the environment first. Opened under
    a lock in that folder: two commands starting at once on a new home would otherwise both create its
    SQLite schema and one would fail."""
    home = Path(os.environ.setdefault("DAGSTER_HOME", str(warehouse_dir() / "dagster_home")))
    home.mkdir(parents=True, exist_ok=True)
    from assets.deploy.service_urls import checked_url

    if checked_url("RAGPIPE_POSTGRES_URL"):  # refused in a line, before use, if it cannot be read one way
        quiet_storage_retries()
    with FileLock(str(home / ".init.lock")):
        write_instance_yaml(home)  # SQLite, or PostgreSQL when RAGPIPE_POSTGRES_URL is set (assets/deploy/instance.py)
        return DagsterInstance.get()


def quiet_storage_retries() -> None:
    """dagster-postgres says each reconnection attempt on the root logger ("Retrying failed database
    connection"); if they all fail, ragpipe says so in one line (assets/deploy/service_errors.py)."""
    import logging
    import sys

    logging.getLogger().addFilter(lambda record: not record.getMessage().startswith("Retrying failed database"))
    if not isinstance(sys.stderr, _WithoutLines):  # and Dagster writes its lost event log lines to stderr
        sys.stderr = _WithoutLines(sys.stderr, ("Exception while writing logger call to event log",))


class _WithoutLines:
    """A text stream that drops the writes starting with one of `prefixes`, and passes on the rest."""

    def __init__(self, stream, prefixes: tuple[str, ...]):
        self._stream, self._prefixes = stream, prefixes

    def write(self, text: str) -> int:
        return len(text) if text.startswith(self._prefixes) else self._stream.write(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def project_config(settings: RunSettings) -> dict:
    """The `project` resource's fields a run's settings set."""
    return {
        "shards": settings.shards,
        "engine_override": json.dumps(settings.engine_override) if settings.engine_override else "",
        "progress_bar": settings.progress_bar,
    }


def outcome_of(results: list) -> Outcome:
    return Outcome(
        failed_runs=sum(not r.success for r in results),
        failed_money=failed_money_checks(results),
        busy=busy_in(results),
        failure=failure_in(results),
        said=judge_said(results) + judge_dropped_said(results) + flips_said(results),
        stopped=pairs_stopped(results),
    )


def outcome_or_service_down(start: Callable[[], list]) -> Outcome:
    """The outcome of the runs `start` makes, or ServiceUnavailable naming a server they lost: PostgreSQL
    gone raises out of the run (Dagster's storage), Redis gone fails the run (its event says why)."""
    try:
        results = start()
    except Exception as exc:
        down = down_in_exception(exc)
        if down is None:
            raise
        raise down from None
    for error in run_failures(results):
        down = down_in_error_info(error)
        if down is not None:
            raise down
    return outcome_of(results)


class DagsterOrchestrator:
    """Materializes through Dagster, opening the instance once, on first use."""

    def __init__(self):
        self._instance: DagsterInstance | None = None

    @property
    def instance(self) -> DagsterInstance:
        if self._instance is None:
            self._instance = dagster_instance()
        return self._instance

    def materialize(self, corpus: str, configs: list[str], settings: RunSettings) -> Outcome:
        resources = default_resources(**project_config(settings))
        return outcome_or_service_down(
            lambda: run_corpus(
                corpus,
                configs,
                instance=self.instance,
                resources=resources,
                in_processes=settings.in_processes,
                on_celery=settings.on_celery,
                project=project_config(settings),
            )
        )

    def materialize_corpus_stages(self, corpus: str) -> Outcome:
        return outcome_of([run_corpus_stages(corpus, instance=self.instance)])

    def rescore(self, corpus: str, config: str) -> Outcome:
        return outcome_of([rescore_pair(corpus, config, instance=self.instance)])

    def regrade_all(self, pairs: list[tuple[str, str]], progress_bar: bool = False) -> Outcome:
        resources = default_resources(progress_bar=progress_bar)
        return outcome_of([regrade_in_one_run(pairs, instance=self.instance, resources=resources)])

    def regrade(self, corpus: str, config: str, on_celery: bool = False, progress_bar: bool = False) -> Outcome:
        if not on_celery:
            resources = default_resources(progress_bar=progress_bar)
            return outcome_of([regrade_pair(corpus, config, instance=self.instance, resources=resources)])
        return outcome_or_service_down(lambda: [run_pair_on_celery(corpus, config, self.instance, regrade_only=True)])
