"""A Celery worker for ragpipe's steps, started as a machine of its own would start it.

    python -m assets.deploy.worker --name w1 --queue dagster                 # shard steps, on any machine
    python -m assets.deploy.worker --name wh --queue warehouse               # the warehouse host's worker

It works in a folder of its own (`--workdir`, default a new temporary one), where it writes the
Celery settings module the workers and the launching process agree on (assets/deploy/celery.py), and runs
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

from assets.deploy.celery import REDIS, redis_url, worker_settings


def settings_module(folder: Path, env=os.environ) -> Path:
    """`dagster_celery_config.py` in `folder` (dagster_celery.app reads it at import). It names Redis by its
    variable and reads the URL from the worker's environment when imported: the password is never
    written to a file (one at mode 0644 once held it). The file is the worker's own: mode 0600."""
    redis_url(env)  # said in one line when it is not set
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["import os", f"broker_url = os.environ[{REDIS!r}]", f"result_backend = os.environ[{REDIS!r}]"]
    lines += [f"{key} = {value!r}" for key, value in worker_settings(env).items()]
    path = folder / "dagster_celery_config.py"
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(lines) + "\n")
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
    # one -Q with the queues joined: Celery keeps only the last of several -Q, and a worker asked for two
    # queues served one (a regrade then waited forever on the other)
    return args + ["-Q", ",".join(dict.fromkeys(queues))]


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
