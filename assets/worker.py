"""A Celery worker for ragpipe's steps, started as a machine of its own would start it.

    python -m assets.worker --name w1 --queue dagster                 # shard steps, on any machine
    python -m assets.worker --name wh --queue warehouse               # the warehouse host's worker

It works in a folder of its own (`--workdir`, default a new temporary one), where it writes the
Celery settings module the workers and the launching process agree on (assets/celery.py), and runs
`celery -A dagster_celery.app worker` there. What it shares with other machines is what the
environment names: Redis (RAGPIPE_REDIS_URL), and, through the run, the Dagster instance on
PostgreSQL and the storage root. The warehouse host's worker also needs RAGPIPE_WAREHOUSE.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from assets.celery import redis_url, worker_settings


def settings_module(folder: Path, env=os.environ) -> Path:
    """`dagster_celery_config.py` in `folder` (dagster_celery.app reads it at import)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [f"broker_url = {redis_url(env)!r}", f"result_backend = {redis_url(env)!r}"]
    lines += [f"{key} = {value!r}" for key, value in worker_settings(env).items()]
    (folder / "dagster_celery_config.py").write_text("\n".join(lines) + "\n")
    return folder


def pool(concurrency: int) -> str:
    """Celery's pool: `solo` (steps run in the worker's own process) for one step at a time, threads for
    more. Not prefork: its pool processes are daemonic, and a daemonic process may not start the
    capped processes an ingest shard parses its PDFs in (ragpipe/corpus/extract_pool.py)."""
    return "solo" if concurrency == 1 else "threads"


def command(name: str, queues: list[str], concurrency: int) -> list[str]:
    celery = str(Path(sys.executable).parent / "celery")
    args = [celery, "-A", "dagster_celery.app", "worker", "-n", f"{name}@%h", "--concurrency", str(concurrency)]
    args += ["--loglevel", "INFO", "--without-gossip", "--without-mingle", "--pool", pool(concurrency)]
    for queue in queues:
        args += ["-Q", queue]
    return args


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--name", required=True, help="the worker's name (recorded with each step it runs)")
    parser.add_argument("--queue", action="append", required=True, help="dagster (shards) or warehouse; repeatable")
    parser.add_argument("--concurrency", type=int, default=1, help="steps at once (default 1)")
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args(argv)
    folder = args.workdir or Path(tempfile.mkdtemp(prefix=f"ragpipe-worker-{args.name}-"))
    config = settings_module(folder / "celery")
    env = {**os.environ, "RAGPIPE_WORKER": args.name}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(config), env.get("PYTHONPATH", "")) if p)
    os.chdir(folder)
    os.execve(
        command(args.name, args.queue, args.concurrency)[0], command(args.name, args.queue, args.concurrency), env
    )


if __name__ == "__main__":
    main()
