"""`make dev` stopped by a signal to its own process (a `kill`, a closed terminal) stops the webserver and
the daemon it started: once, SIGTERM left both running, orphaned, still serving and ticking sensors."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from tests.commands import dev_log, dev_log_tail, env_for, free_port, start_dagster_dev


def _children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (the webserver and the daemon)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.add(int(entry.name))
            except (OSError, IndexError, ValueError):
                pass
    return found


def _said(env: dict) -> str:
    path = dev_log(env)
    return path.read_text(errors="replace") if path.exists() else ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.end_to_end
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_make_dev_stops_the_webserver_and_the_daemon(tmp_path, signum):
    port = free_port()
    env = {**env_for(tmp_path), "DAGSTER_HOME": str(tmp_path / "dh")}
    (tmp_path / "dh").mkdir()
    dev = start_dagster_dev(env, port)
    try:
        deadline = time.monotonic() + 600  # a bound for a hang: a loaded machine starts it slowly
        # make dev prints the URL once the UI answers and the daemon has been started beside it
        while time.monotonic() < deadline and dev.poll() is None and "Dagster UI: " not in _said(env):
            time.sleep(0.2)
        children = _children(dev.pid)
        assert dev.poll() is None and len(children) == 2, dev_log_tail(env)
        os.kill(dev.pid, signum)  # to make dev's own process only, as `kill PID` sends it
        dev.wait(timeout=120)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and any(_alive(p) for p in children):
            time.sleep(0.2)
        assert not [p for p in children if _alive(p)], dev_log_tail(env)
        with pytest.raises(httpx.TransportError):
            httpx.get(f"http://127.0.0.1:{port}/server_info", timeout=5)
    finally:
        try:
            os.killpg(dev.pid, 9)
        except ProcessLookupError:
            pass
        dev.wait(timeout=30)
