"""Step start benchmark: the multiprocess job's steps forked from a preloaded server (`forkserver`,
ours) against a fresh interpreter per step (`spawn`, Dagster's default), side by side.

`ragpipe run --corpus demo --config default --shards 2 --processes` (20 steps) from a fresh warehouse
and Dagster home, under RAGPIPE_STEP_START=forkserver and =spawn, alternating, N times each (3; 1
with --quick); the medians and their ratio are printed. No ../shared data needed.

    python bench/step_start.py [--quick] [--json]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import main  # noqa: E402

RAGPIPE = str(Path(sys.executable).parent / "ragpipe")
COMMAND = [RAGPIPE, "run", "--corpus", "demo", "--config", "default", "--shards", "2", "--processes"]


def _seconds(method: str) -> float:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "dh").mkdir()
        env = {
            **os.environ,
            "RAGPIPE_WAREHOUSE": f"{folder}/wh",
            "DAGSTER_HOME": f"{folder}/dh",
            "RAGPIPE_STEP_START": method,
        }
        start = time.perf_counter()
        subprocess.run(COMMAND, env=env, capture_output=True, check=True)
        return time.perf_counter() - start


def run(quick: bool) -> dict:
    n = 1 if quick else 3
    times: dict[str, list[float]] = {"forkserver": [], "spawn": []}
    for _ in range(n):
        for method in times:
            times[method].append(_seconds(method))
    medians = {f"{method}_s": statistics.median(ts) for method, ts in times.items()}
    return {**medians, "spawn_over_forkserver": medians["spawn_s"] / medians["forkserver_s"], "runs_each": n}


if __name__ == "__main__":
    main(run, "step start", __doc__.splitlines()[0], "1 run of each instead of 3")
