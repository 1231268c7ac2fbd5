"""`make dev`: the Dagster UI on 127.0.0.1:PORT (default 3000) and the daemon beside it, the URL said once
the UI answers.

Dagster 1.13 marks `dagster dev` superseded (by `dg dev`, of the `dg` tool this project does not install);
what it ran is run here directly: the webserver (Dagster's UI app behind a guard that takes requests from
its own page on this machine only: assets/deploy/guarded_webserver.py) and the daemon (`dagster-daemon
run`, which runs the sensors: after_grading, grader_watch), both on workspace.yaml and $DAGSTER_HOME. A taken
port is refused at once, naming it and how to pick another (`dagster dev` picked another port and said so
in one warning among many log lines); Ctrl-C, SIGTERM or SIGHUP stops both, and one that stops stops the other.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

DEFAULT_PORT = 3000


def port_taken(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


def main() -> int:
    raw = os.environ.get("PORT") or str(DEFAULT_PORT)
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 65535:  # "²".isdigit() is true
        print(f"PORT={raw!r}: give a port number, e.g. `make dev PORT=3001`", file=sys.stderr)
        return 2
    port = int(raw)
    if port_taken(port):
        print(
            f"port {port} on 127.0.0.1 is taken: run `make dev PORT=<another>`, e.g. PORT={port + 1}", file=sys.stderr
        )
        return 2
    if not os.environ.get("DAGSTER_HOME"):
        print("DAGSTER_HOME is not set: `make dev` sets it (warehouse/dagster_home)", file=sys.stderr)
        return 2
    url = f"http://127.0.0.1:{port}"
    for signum in (signal.SIGTERM, signal.SIGHUP):  # a `kill` or a closed terminal stops both, as Ctrl-C does
        signal.signal(signum, _interrupted)
    processes = [start_webserver(port)]
    try:
        while all(p.poll() is None for p in processes) and not answers(f"{url}/server_info"):
            time.sleep(0.5)
        if all(p.poll() is None for p in processes):
            # once the UI answers: on a new DAGSTER_HOME both processes creating the instance's SQLite schema at
            # once collided ("UNIQUE constraint failed: alembic_version"), and the webserver died
            processes.append(start_daemon())
            print(f"\nDagster UI: {url}  (Ctrl-C stops it and the daemon)\n", flush=True)
        while all(p.poll() is None for p in processes):
            time.sleep(0.5)
    except KeyboardInterrupt:  # the two got the same Ctrl-C (one process group): let them shut down
        pass
    return stop(processes)


def _interrupted(signum, frame) -> None:
    """SIGTERM or SIGHUP to this process alone: stop the webserver and the daemon rather than orphan them."""
    raise KeyboardInterrupt


_ENV = {"RAGPIPE_UI": "1"}  # their definitions say on grades' first line when a regrade is due


def start_webserver(port: int) -> subprocess.Popen:
    """The webserver, in this process's group (a Ctrl-C on the terminal reaches it too)."""
    webserver = [sys.executable, "-m", "assets.deploy.guarded_webserver", "workspace.yaml", str(port)]
    return subprocess.Popen(webserver, env={**os.environ, **_ENV})


def start_daemon() -> subprocess.Popen:
    """The daemon (the sensors), in this process's group."""
    # its INFO lines (the daemons it runs, each tick) once followed the URL within seconds: warnings and errors only
    daemon = [str(Path(sys.executable).parent / "dagster-daemon"), "run", "-w", "workspace.yaml"]
    daemon += ["--log-level", "warning"]
    return subprocess.Popen(daemon, env={**os.environ, **_ENV})


def stop(processes: list[subprocess.Popen]) -> int:
    """Stop what still runs (asked first, killed after a minute); the first non-zero exit code, else 0."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # a second signal never cuts the stop short
        signal.signal(signum, signal.SIG_IGN)
    for p in processes:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
    for p in processes:
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    codes = [p.returncode for p in processes]
    return next((c for c in codes if c not in (0, -signal.SIGINT, -signal.SIGTERM)), 0)


if __name__ == "__main__":
    sys.exit(main())
