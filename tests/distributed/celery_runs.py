"""What the Celery tests share: the launcher's `ragpipe` process, the workers, the instance as a team opens it,
and a run's step metadata. One file per long test, so the suite's workers run them side by side."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.commands import RAGPIPE
from tests.conftest import ROOT


def ragpipe_on(cluster, warehouse: Path, *args: str, **extra: str) -> subprocess.Popen:
    env = cluster.env("home-launcher", RAGPIPE_WAREHOUSE=str(warehouse), **extra)
    return subprocess.Popen(
        [RAGPIPE, *args], env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def start_workers(cluster, warehouse: Path, **extra: str) -> None:
    for name in ("w1", "w2"):
        cluster.start_worker(name, "dagster", **extra)
    cluster.start_worker("wh", "warehouse", RAGPIPE_WAREHOUSE=str(warehouse), **extra)


def team_instance(cluster, monkeypatch, tmp_path):
    """The Dagster instance as anyone on the team opens it: PostgreSQL, from the environment."""
    from dagster import DagsterInstance

    from assets.deploy.instance import write_instance_yaml

    for key, value in cluster.shared().items():
        monkeypatch.setenv(key, value)
    tmp_path.mkdir(parents=True, exist_ok=True)
    write_instance_yaml(tmp_path)
    return DagsterInstance.from_config(str(tmp_path))


def step_metadata(instance, run_id: str, prefix: str) -> dict[str, dict]:
    """step key -> the output metadata of each step whose key starts with `prefix`."""
    from dagster import DagsterEventType

    out = {}
    for record in instance.all_logs(run_id, of_type=DagsterEventType.STEP_OUTPUT):
        event = record.dagster_event
        if event.step_key.startswith(prefix):
            out[event.step_key] = {k: v.value for k, v in event.step_output_data.metadata.items()}
    return out
