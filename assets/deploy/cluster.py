"""A cluster on one machine, each part as a machine of its own would be: PostgreSQL and Redis servers
with throwaway folders, and Celery workers, each its own process group with its own working folder,
Dagster home and environment, sharing nothing but PostgreSQL, Redis and the storage root.

    python -m assets.deploy.cluster [FOLDER]    # `make cluster`: both servers, two shard workers and the
                                         # warehouse host's worker; prints what to export, then waits

The distributed tests start the same parts (tests/distributed/).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from assets.deploy.services import Postgres, Redis

# what no worker inherits from the test's process: its warehouse, home, rules and engines' settings
PRIVATE = ("RAGPIPE_", "DAGSTER_HOME")


@dataclass
class Cluster:
    folder: Path
    postgres: Postgres
    redis: Redis
    workers: dict[str, subprocess.Popen] = field(default_factory=dict)

    @property
    def storage_root(self) -> Path:
        return self.folder / "storage"

    def shared(self) -> dict:
        """The addresses every part is given: PostgreSQL, Redis and the storage root."""
        return {
            "RAGPIPE_POSTGRES_URL": self.postgres.url,
            "RAGPIPE_REDIS_URL": self.redis.url,
            "RAGPIPE_STORAGE_ROOT": str(self.storage_root / "dagster"),
        }

    def env(self, home: str, **extra: str) -> dict:
        base = {k: v for k, v in os.environ.items() if not k.startswith(PRIVATE)}
        return {**base, **self.shared(), "DAGSTER_HOME": str(self.folder / home), **extra}

    def start_worker(self, name: str, queue: str | list[str], **extra: str) -> subprocess.Popen:
        """A worker serving `queue` (or each of a list), in its own folder and process group; waits until
        Celery says it is ready (a bound of 5 minutes that only catches a worker that cannot start)."""
        work = self.folder / f"worker-{name}"
        work.mkdir(parents=True, exist_ok=True)
        log = work / "worker.log"
        queues = [queue] if isinstance(queue, str) else queue
        args = [sys.executable, "-m", "assets.deploy.worker", "--name", name, "--workdir", str(work)]
        args += [a for q in queues for a in ("--queue", q)]
        proc = subprocess.Popen(
            args,
            env=self.env(f"home-{name}", **extra),
            cwd=work,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killed whole, as a machine going away
        )
        deadline = time.monotonic() + 300
        while "ready." not in log.read_text():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"worker {name} did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)
        self.workers[name] = proc
        return proc

    def kill_worker(self, name: str) -> None:
        """SIGKILL to the worker's whole process group: no goodbye, no acknowledgement."""
        proc = self.workers.pop(name)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)

    def stop_workers(self) -> None:
        for proc in self.workers.values():
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=30)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(proc.pid, signal.SIGKILL)
        self.workers.clear()

    def stop(self) -> None:
        self.stop_workers()
        self.redis.stop()
        self.postgres.stop()


def celery_run(corpus: str, shards: int = 4) -> list[str]:
    """`ragpipe run`'s arguments for a corpus's default pair on the workers, cut into `shards`."""
    return ["run", "--corpus", corpus, "--config", "default", "--executor", "celery", "--shards", str(shards)]


def start_cluster(folder: Path) -> Cluster:
    postgres = Postgres(folder / "postgres").start()
    try:
        redis = Redis(folder / "redis").start()
    except BaseException:  # no redis-server: PostgreSQL is not left running
        postgres.stop()
        raise
    return Cluster(folder, postgres, redis)


def main(argv: list[str] | None = None) -> None:
    """Start a local cluster for the warehouse at $RAGPIPE_WAREHOUSE (default warehouse/) and wait."""
    import argparse
    import tempfile

    from ragpipe.warehouse.settings import warehouse_dir

    parser = argparse.ArgumentParser(description="PostgreSQL, Redis and three Celery workers on 127.0.0.1")
    parser.add_argument("folder", nargs="?", type=Path, default=None, help="where the parts keep their files")
    args = parser.parse_args(argv)
    folder = args.folder or Path(tempfile.mkdtemp(prefix="ragpipe-cluster-"))
    warehouse = warehouse_dir().resolve()
    cluster = start_cluster(folder)
    try:
        for name in ("w1", "w2"):
            cluster.start_worker(name, "dagster")
        cluster.start_worker("wh", "warehouse", RAGPIPE_WAREHOUSE=str(warehouse))
        exports = {**cluster.shared(), "RAGPIPE_WAREHOUSE": str(warehouse)}
        print("a cluster on 127.0.0.1 (Ctrl-C stops it): in another terminal,\n")
        print("\n".join(f"export {k}={v}" for k, v in exports.items()))
        print("make dev                                   # the UI, its runs in PostgreSQL")
        print(f".venv/bin/ragpipe {' '.join(celery_run('demo'))}\n")
        print(f"workers' logs: {folder}/worker-*/worker.log")
        while all(p.poll() is None for p in cluster.workers.values()):
            time.sleep(1)
        print("a worker stopped: see its log")
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
