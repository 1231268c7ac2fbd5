"""PostgreSQL and Redis on 127.0.0.1 with throwaway data folders: what `make cluster` and the
distributed tests start, from Debian's packages (`postgresql`, `redis-server`).

PostgreSQL will not run as root: when this process is root, the server and `initdb` run as the
`postgres` user the package creates, in a folder handed to it. Nothing here is needed by the default
path (SQLite instance, in-process or multiprocess steps).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path


class ServiceMissing(RuntimeError):
    """A server binary is not installed (`make services` installs it)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise ServiceMissing(f"PostgreSQL's {name} is not installed (Debian package postgresql: `make services`)")
    return found[-1]


def _as_server_user(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]


def _wait_port(port: int, timeout: float, what: str, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode} before listening on 127.0.0.1:{port}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(f"{what} did not listen on 127.0.0.1:{port} within {timeout:.0f} s")


@dataclass
class Postgres:
    """A PostgreSQL server of its own in `folder` (data, socket, log), on a free port."""

    folder: Path
    port: int = field(default_factory=free_port)
    password: str = "ragpipe-local"

    @property
    def url(self) -> str:
        return f"postgresql+psycopg2://ragpipe:{self.password}@127.0.0.1:{self.port}/ragpipe"

    def start(self) -> Postgres:
        """initdb (once) and start. Its files live in a folder of /tmp of their own (the server's user must
        reach them, and a test's folder is private to root); `folder` keeps the log and a note of where."""
        self.folder.mkdir(parents=True, exist_ok=True)
        note = self.folder / "data-folder"
        data = Path(note.read_text()) if note.exists() else Path(tempfile.mkdtemp(prefix="ragpipe-postgres-"))
        note.write_text(str(data))
        if not (data / "db" / "PG_VERSION").exists():
            (data / "run").mkdir(exist_ok=True)
            (data / "pw").write_text(self.password)
            if os.geteuid() == 0:
                user = pwd.getpwnam("postgres")
                for path in (data, data / "run", data / "pw"):
                    os.chown(path, user.pw_uid, user.pw_gid)
            initdb = [_pg_bin("initdb"), "-D", str(data / "db"), "-U", "ragpipe", "--pwfile", str(data / "pw")]
            done = subprocess.run(_as_server_user(initdb + ["-A", "scram-sha-256"]), capture_output=True, text=True)
            (data / "pw").unlink()
            if done.returncode:
                raise RuntimeError(f"initdb failed: {done.stderr.strip()[-500:]}")
        self.data = data
        options = f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={data / 'run'}"
        log = data / "server.log"
        start = [_pg_bin("pg_ctl"), "-D", str(data / "db"), "-l", str(log), "-o", options + " -c fsync=off", "-w"]
        done = subprocess.run(_as_server_user(start + ["start"]), capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"PostgreSQL did not start: {done.stderr.strip()[-300:]} {log.read_text()[-500:]}")
        self._create_database()
        return self

    def _create_database(self) -> None:
        import psycopg2

        conn = psycopg2.connect(self.url.replace("+psycopg2", "").rsplit("/", 1)[0] + "/postgres")
        conn.autocommit = True
        with conn.cursor() as cur:
            cur.execute("SELECT 1 FROM pg_database WHERE datname = 'ragpipe'")
            if not cur.fetchall():
                cur.execute("CREATE DATABASE ragpipe")
        conn.close()

    def stop(self, remove: bool = True) -> None:
        data = Path((self.folder / "data-folder").read_text())
        stop = [_pg_bin("pg_ctl"), "-D", str(data / "db"), "-m", "fast", "-w", "stop"]
        subprocess.run(_as_server_user(stop), capture_output=True, text=True)
        if remove:
            shutil.rmtree(data, ignore_errors=True)
            (self.folder / "data-folder").unlink(missing_ok=True)


@dataclass
class Redis:
    """A Redis server of its own in `folder`, on a free port, persisting nothing."""

    folder: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        binary = shutil.which("redis-server")
        if binary is None:
            raise ServiceMissing("redis-server is not installed (Debian package redis-server: `make services`)")
        self.folder.mkdir(parents=True, exist_ok=True)
        args = [binary, "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.folder)]
        args += ["--save", "", "--appendonly", "no", "--protected-mode", "yes"]
        log = open(self.folder / "redis.log", "w")  # noqa: SIM115 - the server's own, closed with it
        self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        _wait_port(self.port, 20, "redis-server", self.proc)
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
