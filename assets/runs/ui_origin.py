"""Runs started from code, named as the UI's own: with the origin of their job in the workspace's code
location, so the Overview's timeline and each job's page list them.

`execute_in_process` and `execute_job` create a run without a remote job origin; the UI lists such a run
under Runs only ("No runs or scheduled ticks in this time period" on the Overview right after `make run`),
and cannot re-execute it. The origin is the one the webserver and the daemon load from workspace.yaml (the
same file, read the same way: no code server is started), the repository being the definitions' one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from dagster import DagsterInstance
from dagster._core.remote_origin import RemoteJobOrigin, RemoteRepositoryOrigin
from dagster._core.workspace.load_target import WorkspaceFileTarget

WORKSPACE = Path(__file__).resolve().parents[2] / "workspace.yaml"
REPOSITORY = "__repository__"  # the name Dagster gives the repository of a Definitions object


@cache
def _location():
    """The code location workspace.yaml declares, as the UI names it; None without one."""
    if not WORKSPACE.is_file():
        return None
    origins = WorkspaceFileTarget(paths=[str(WORKSPACE)]).create_origins()
    return origins[0] if len(origins) == 1 else None


def job_origin(job: str) -> RemoteJobOrigin | None:
    """The origin the UI gives the job `job` of the workspace's definitions."""
    location = _location()
    return None if location is None else RemoteJobOrigin(RemoteRepositoryOrigin(location, REPOSITORY), job)


@contextmanager
def seen_by_the_ui(instance: DagsterInstance | None) -> Iterator[None]:
    """While inside, each run `instance` creates carries its job's workspace origin (an ephemeral instance,
    which no UI reads, is left as it is)."""
    if instance is None or _location() is None:
        yield
        return
    create = instance.create_run_for_job

    def with_origin(*args, **kwargs):
        job_def = kwargs.get("job_def")
        if kwargs.get("remote_job_origin") is None and job_def is not None:
            kwargs["remote_job_origin"] = job_origin(job_def.name)
        return create(*args, **kwargs)

    instance.create_run_for_job = with_origin  # type: ignore[method-assign]
    try:
        yield
    finally:
        del instance.create_run_for_job
