"""The library's Orchestrator, implemented with Dagster: how the `ragpipe` command materializes.

Runs use the Dagster instance at $DAGSTER_HOME (default warehouse/dagster_home),
where `dagster dev` finds their history. A run's settings become the `project`
resource's configuration (in-process runs) or its run config (multiprocess
runs), never environment variables.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from dagster import DagsterInstance
from filelock import FileLock

from assets.resources import default_resources
from assets.runner import busy_in, failed_money_checks, failure_in, regrade_pair, run_corpus, run_corpus_stages
from ragpipe.cli.orchestrator import Outcome, RunSettings
from ragpipe.warehouse.settings import warehouse_dir


def dagster_instance() -> DagsterInstance:
    """The instance at $DAGSTER_HOME. Opened under a lock in that folder: two commands starting at
    once on a new home would otherwise both create its SQLite schema and one would fail."""
    home = Path(os.environ.setdefault("DAGSTER_HOME", str(warehouse_dir() / "dagster_home")))
    home.mkdir(parents=True, exist_ok=True)
    with FileLock(str(home / ".init.lock")):
        config = home / "dagster.yaml"
        if not config.exists():
            config.write_text(
                "telemetry:\n  enabled: false  # this machine reaches no network but package registries\n"
            )
        return DagsterInstance.get()


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
    )


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
        return outcome_of(
            run_corpus(
                corpus,
                configs,
                instance=self.instance,
                resources=resources,
                in_processes=settings.in_processes,
                project=project_config(settings),
            )
        )

    def materialize_corpus_stages(self, corpus: str) -> Outcome:
        return outcome_of([run_corpus_stages(corpus, instance=self.instance)])

    def regrade(self, corpus: str, config: str) -> Outcome:
        return outcome_of([regrade_pair(corpus, config, instance=self.instance)])
