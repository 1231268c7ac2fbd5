"""The Dagster instance's `dagster.yaml`, written from the environment: SQLite by default, PostgreSQL
when `RAGPIPE_POSTGRES_URL` is set (runs, event logs and schedules in one server database that several
people and machines share), and a shared artifact root when `RAGPIPE_STORAGE_ROOT` is set (step
outputs and compute logs where every Celery worker reaches them).

The file names the variables, never their values: a password stays in the environment. ragpipe
writes the file only when it is absent or one ragpipe wrote (its first line says so); a
`dagster.yaml` of your own is left alone.

    python -m assets.deploy.instance      # write $DAGSTER_HOME/dagster.yaml now (`make dev` does)
"""

from __future__ import annotations

import os
from pathlib import Path

MARK = "# written by ragpipe (assets/deploy/instance.py) from the environment: delete it to have it written again"
LEGACY = "telemetry:\n  enabled: false  # this machine reaches no network but package registries\n"
POSTGRES, STORAGE = "RAGPIPE_POSTGRES_URL", "RAGPIPE_STORAGE_ROOT"


def instance_yaml(env=os.environ) -> str:
    parts = [
        MARK,
        "telemetry:\n  enabled: false  # this machine reaches no network but package registries",
        "nux:\n  enabled: false  # no first-visit pop-up in the UI",
    ]
    if env.get(POSTGRES):
        parts.append(f"storage:\n  postgres:\n    postgres_url:\n      env: {POSTGRES}")
    if env.get(STORAGE):
        parts.append(
            "local_artifact_storage:\n  module: dagster._core.storage.root\n  class: LocalArtifactStorage\n"
            f"  config:\n    base_dir:\n      env: {STORAGE}"
        )
    return "\n".join(parts) + "\n"


def write_instance_yaml(home: Path, env=os.environ) -> bool:
    """Make `home/dagster.yaml` say what the environment asks for; False when it is someone else's."""
    path = home / "dagster.yaml"
    current = path.read_text() if path.exists() else None
    if current is not None and not current.startswith(MARK) and current != LEGACY:
        return False
    wanted = instance_yaml(env)
    if current != wanted:
        path.write_text(wanted)
    return True


if __name__ == "__main__":
    home = Path(os.environ["DAGSTER_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    said = "written" if write_instance_yaml(home) else "left as it is (not one ragpipe wrote)"
    print(f"{home / 'dagster.yaml'}: {said}")
