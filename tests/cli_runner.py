"""The `ragpipe` commands run in this process (Typer's runner): for read-only commands and refusals,
which need no orchestrator and should not pay a process start each."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner


def invoke(*args: str, warehouse: Path | None = None, env: dict | None = None):
    """Run `ragpipe ARGS`; returns Typer's Result (exit_code, stdout, stderr, exception)."""
    from ragpipe.cli.main import app

    settings = {**({"RAGPIPE_WAREHOUSE": str(warehouse)} if warehouse else {}), **(env or {})}
    return CliRunner().invoke(app, list(args), env=settings)
