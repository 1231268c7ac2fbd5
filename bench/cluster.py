"""Celery benchmark: ingest, a pair's steps and a regrade on 1 shard worker against 2, side by side.

FinanceBench (90 filings, 11,948 pages; its default pair: 150 questions answered by the built-in
engine, 8 labelled sets imported, 1,350 answers graded), from an empty warehouse: `ragpipe run
--executor celery --shards 4` (the corpus stages, the PDFs parsed in 4 shards, then the pair), then
`ragpipe regrade --executor celery` (RAGPIPE_SHARDS=4). Each trial has its own PostgreSQL, Redis,
warehouse and workers: the warehouse host's worker plus 1 or 2 shard workers, each one step at a time
and one PDF reader at a time (RAGPIPE_EXTRACT_WORKERS=1: each worker stands for a one-core machine).
Each stage's time is its run's, read back from the instance on PostgreSQL (`parsing`: the ingest
run's PDF shards, first start to last end); the medians and their ratios are printed. This machine
has 2 cores, so about 2x is the ceiling. `--quick`: the demo corpus, 1 trial each.

    python bench/cluster.py [--quick] [--json]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Skipped, financebench_folder, main  # noqa: E402

from assets.deploy.cluster import celery_run, start_cluster  # noqa: E402
from assets.deploy.services import ServiceMissing  # noqa: E402

RAGPIPE = str(Path(sys.executable).parent / "ragpipe")
ROOT = Path(__file__).resolve().parent.parent
STAGES = {"ingest": "corpus_on_celery", "pair": "pair_on_celery", "regrade": "regrade_on_celery"}


def _ragpipe(env: dict, *args: str) -> None:
    done = subprocess.run([RAGPIPE, *args], env=env, cwd=ROOT, capture_output=True, text=True)
    if done.returncode not in (0, 1) or "failed:" in done.stdout:  # 1 alone: a set failed the money bar
        raise RuntimeError(f"ragpipe {' '.join(args)}: {done.stdout[-1000:]}{done.stderr[-2000:]}")


def _run_seconds(cluster) -> dict[str, float]:
    """Each stage's run, start to end, as the instance on PostgreSQL recorded it."""
    from dagster import DagsterInstance, RunsFilter

    from assets.deploy.instance import write_instance_yaml

    os.environ.update(cluster.shared())
    home = cluster.folder / "home-reader"
    home.mkdir(parents=True, exist_ok=True)
    write_instance_yaml(home)
    with DagsterInstance.from_config(str(home)) as instance:
        out = {}
        for stage, job in STAGES.items():
            (record,) = instance.get_run_records(RunsFilter(job_name=job))
            out[stage] = record.end_time - record.start_time
            if stage == "ingest":  # the part the workers share: first PDF shard started to last one done
                steps = instance.get_run_step_stats(record.dagster_run.run_id)
                shards = [s for s in steps if s.step_key.startswith("ingest.extract_shard")]
                out["parsing"] = max(s.end_time for s in shards) - min(s.start_time for s in shards)
        return out


def _trial(corpus: str, shard_workers: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        try:
            cluster = start_cluster(Path(tmp) / "cluster")
        except ServiceMissing as exc:
            raise Skipped(f"{exc} (`make services` installs PostgreSQL and Redis)") from None
        try:
            warehouse = cluster.storage_root / "warehouse"
            one_core = {"RAGPIPE_EXTRACT_WORKERS": "1"}
            for k in range(shard_workers):
                cluster.start_worker(f"w{k + 1}", "dagster", **one_core)
            cluster.start_worker("wh", "warehouse", RAGPIPE_WAREHOUSE=str(warehouse), **one_core)
            env = cluster.env("home-launcher", RAGPIPE_WAREHOUSE=str(warehouse))
            _ragpipe(env, *celery_run(corpus))
            _ragpipe({**env, "RAGPIPE_SHARDS": "4"}, "regrade", "--executor", "celery")  # its grade steps in 4 shards
            return _run_seconds(cluster)
        finally:
            cluster.stop()


def run(quick: bool) -> dict:
    corpus = "demo" if quick else "financebench"
    if not quick:
        financebench_folder()  # Skipped, with the reason, when the data is absent
    n = 1 if quick else 3
    trials: dict[int, list[dict]] = {1: [], 2: []}
    for _ in range(n):
        for workers in trials:
            trials[workers].append(_trial(corpus, workers))
    result: dict = {"corpus": corpus, "trials_each": n}
    for stage in [*STAGES, "parsing"]:
        one = statistics.median(t[stage] for t in trials[1])
        two = statistics.median(t[stage] for t in trials[2])
        result |= {f"{stage}_one_worker_s": one, f"{stage}_two_workers_s": two, f"{stage}_one_over_two": one / two}
    return result


if __name__ == "__main__":
    main(run, "ingest, pair and regrade on Celery workers", __doc__.splitlines()[0], "the demo corpus, 1 trial each")
