"""Celery benchmark: a pair's steps on 1 shard worker against 2, side by side in one run.

FinanceBench's default pair (its 150 questions answered by the built-in engine, its 8 labelled sets
imported, 1,350 answers graded) with `ragpipe run --executor celery --shards 4`, from a warehouse
holding the corpus stages only (ingested once beforehand: ingest runs in the launching process,
whose extraction pool already uses every core). Each trial has its own PostgreSQL, Redis, warehouse
copy and workers (the warehouse host's worker plus 1 or 2 shard workers, each one step at a time);
the medians and their ratio are printed. This machine has 2 cores, so about 2x is the ceiling.
`--quick`: the demo pair, 1 trial each.

    python bench/cluster.py [--quick] [--json]
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import financebench_folder, main  # noqa: E402

from assets.cluster import celery_run, start_cluster  # noqa: E402

RAGPIPE = str(Path(sys.executable).parent / "ragpipe")
ROOT = Path(__file__).resolve().parent.parent


def _corpus_stages(corpus: str, folder: Path) -> Path:
    """A warehouse holding `corpus`'s ingested pages, questions and needles (`corpus stats` makes them)."""
    warehouse = folder / "base"
    env = {"RAGPIPE_WAREHOUSE": str(warehouse), "DAGSTER_HOME": str(folder / "base-home"), "PATH": "/usr/bin:/bin"}
    subprocess.run([RAGPIPE, "corpus", "stats", corpus], env=env, cwd=ROOT, capture_output=True, check=True)
    return warehouse


def _pair_seconds(corpus: str, base: Path, shard_workers: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        warehouse = folder / "warehouse"
        shutil.copytree(base, warehouse)
        cluster = start_cluster(folder / "cluster")
        try:
            for k in range(shard_workers):
                cluster.start_worker(f"w{k + 1}", "dagster")
            cluster.start_worker("wh", "warehouse", RAGPIPE_WAREHOUSE=str(warehouse))
            env = cluster.env("home-launcher", RAGPIPE_WAREHOUSE=str(warehouse))
            command = [RAGPIPE, *celery_run(corpus)]
            start = time.perf_counter()
            done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
            seconds = time.perf_counter() - start
            if done.returncode not in (0, 1):  # 1: a set failed the money bar, which is a result, not a failure
                raise RuntimeError(done.stderr[-2000:])
            return seconds
        finally:
            cluster.stop()


def run(quick: bool) -> dict:
    corpus = "demo" if quick else "financebench"
    if not quick:
        financebench_folder()  # exits with the reason when the data is absent
    n = 1 if quick else 3
    with tempfile.TemporaryDirectory() as tmp:
        base = _corpus_stages(corpus, Path(tmp))
        times: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(n):
            for workers in times:
                times[workers].append(_pair_seconds(corpus, base, workers))
    one, two = statistics.median(times[1]), statistics.median(times[2])
    return {"corpus": corpus, "one_worker_s": one, "two_workers_s": two, "one_over_two": one / two, "trials_each": n}


if __name__ == "__main__":
    main(run, "steps on Celery workers", __doc__.splitlines()[0], "the demo pair, 1 trial each")
