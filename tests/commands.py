"""The `ragpipe` command as tests run it: in its own process (what a user runs; crash, concurrency and
end-to-end tests), or in this one (Typer's runner: read-only commands and refusals, no process start).
One place for both, so no test file keeps a private copy."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

RAGPIPE = str(Path(sys.executable).parent / "ragpipe")


def env_for(tmp: Path, **extra: str) -> dict:
    """The environment of a `ragpipe` whose warehouse is tmp/wh and Dagster home tmp/dh."""
    return {**os.environ, "RAGPIPE_WAREHOUSE": str(tmp / "wh"), "DAGSTER_HOME": str(tmp / "dh"), **extra}


def ragpipe(env: dict, *args: str, timeout: float = 600, check: bool = False) -> subprocess.CompletedProcess:
    """`ragpipe ARGS` in its own process, from the project folder; output captured as text."""
    return subprocess.run(
        [RAGPIPE, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=check
    )


STARTED: list[subprocess.Popen] = []  # killed after each test if still running (tests/conftest.py)


def start(env: dict, *args: str) -> subprocess.Popen:
    """`ragpipe ARGS` started and left running (to be killed, or raced); one the test leaves running, as a
    test skipped after starting it does, is killed when the test ends."""
    process = subprocess.Popen(
        [RAGPIPE, *args], env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    STARTED.append(process)
    return process


def invoke(*args: str, warehouse: Path | None = None, env: dict | None = None):
    """`ragpipe ARGS` in this process; returns Typer's Result (exit_code, output, exception)."""
    from typer.testing import CliRunner

    from ragpipe.cli.main import app

    settings = {**({"RAGPIPE_WAREHOUSE": str(warehouse)} if warehouse else {}), **(env or {})}
    return CliRunner().invoke(app, list(args), env=settings)


def openai_run(base_url: str, *extra: str, corpus: str = "demo", model: str = "test-model") -> tuple[str, ...]:
    """The arguments of `ragpipe run` on the `default` pair with the OpenAI-compatible engine at `base_url`
    (a tests/chat_server.py server), its key read from RAGPIPE_TEST_KEY."""
    return (
        "run", "--corpus", corpus, "--config", "default", "--engine", "openai", "--base-url", base_url,
        "--model", model, "--api-key-env", "RAGPIPE_TEST_KEY", *extra,
    )  # fmt: skip


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_dagster_dev(env: dict, port: int) -> subprocess.Popen:
    """What `make dev` starts (assets/deploy/dev_ui.py: the webserver and the daemon) on 127.0.0.1:`port`,
    in its own process group: stop it with `os.killpg(process.pid, signal)`."""
    log = open(dev_log(env), "ab")  # noqa: SIM115 - the child holds it; read by `dev_log_tail` when a test fails
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "assets.deploy.dev_ui"],
            cwd=ROOT,
            env={**env, "PORT": str(port)},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    finally:
        log.close()


def dev_log(env: dict) -> Path:
    """Where `start_dagster_dev` writes what the webserver and daemon said: beside their DAGSTER_HOME."""
    return Path(env["DAGSTER_HOME"]).parent / "make-dev.log"


def dev_log_tail(env: dict, lines: int = 40) -> str:
    path = dev_log(env)
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else "(no log)"


def wait_until_open(process: subprocess.Popen, path: Path, bound: float = 300) -> None:
    """Return once `process` holds `path` open (an event: its /proc file descriptors), not after a guess at
    how long it takes to get there; fail if it ended first, or after `bound` seconds, which only catches
    a hang (a loaded machine may take tens of seconds to start a process)."""
    import time

    target, deadline = str(Path(path).resolve()), time.monotonic() + bound
    fds = Path(f"/proc/{process.pid}/fd")
    while time.monotonic() < deadline:
        if process.poll() is not None:
            out, err = process.communicate()
            raise AssertionError(f"process {process.pid} ended ({process.returncode}) before opening {path}: {err}")
        try:
            if any(os.readlink(fd) == target for fd in fds.iterdir()):
                return
        except OSError:  # a descriptor closed while we read the list
            pass
        time.sleep(0.05)
    raise AssertionError(f"process {process.pid} did not open {path} in {bound:.0f} s")


def ragpipe_in_terminal(
    env: dict, *args: str, columns: int = 80, timeout: float = 600, plain: bool = True, check: bool = False
) -> str:
    """`ragpipe ARGS` on a terminal `columns` wide (a pseudo-terminal, as a person's): everything it wrote,
    without colour and cursor codes unless `plain` is False; with `check`, it must exit 0."""
    import fcntl
    import pty
    import re
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    process = subprocess.Popen(
        [RAGPIPE, *args], env={"TERM": "xterm", **env}, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=follower,
        stderr=follower,
    )  # fmt: skip
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the other end closed: the command is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    text = b"".join(chunks).decode("utf-8", "replace")
    code = process.wait(timeout=timeout)
    assert not check or code == 0, text[-2000:]
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text.replace("\r\n", "\n")) if plain else text


def wait_for_ui(process: subprocess.Popen, port: int, env: dict, bound: float = 600) -> None:
    """Return once `make dev`'s UI on `port` answers (an event: its /server_info); fail, with the end of
    its log, if it ended first, or after `bound` seconds, which only catches a hang."""
    import time
    import urllib.request

    deadline = time.monotonic() + bound
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/server_info", timeout=10) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"make dev never answered on {port} (exit {process.poll()}):\n{dev_log_tail(env)}")
