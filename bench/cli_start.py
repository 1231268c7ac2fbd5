"""Command start benchmark: `ragpipe sql "SELECT 1"` against `python -c "import duckdb"`, side by side.

A user who types queries all day compares `ragpipe sql` with DuckDB's own start.
Both are run N times (20; 5 with --quick), alternating, each a fresh process on a
small warehouse built once by DuckDB; the medians and their ratio are printed
(the aim: under 2). `ragpipe --help` and `ragpipe scorecard` are timed the same
way, and `python -c "import dagster"` for scale (what every command paid before).

    python bench/cli_start.py [--quick] [--json]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import main  # noqa: E402

RAGPIPE = str(Path(sys.executable).parent / "ragpipe")


def _seconds(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, capture_output=True, check=True)
    return time.perf_counter() - start


def run(quick: bool) -> dict:
    n = 5 if quick else 20
    with tempfile.TemporaryDirectory() as folder:
        with duckdb.connect(str(Path(folder) / "ragpipe.duckdb")) as conn:
            conn.execute("CREATE TABLE scorecards AS SELECT 1 AS x")
        env = {**os.environ, "RAGPIPE_WAREHOUSE": folder}
        commands = {
            "import_duckdb": [sys.executable, "-c", "import duckdb"],
            "ragpipe_sql": [RAGPIPE, "sql", "SELECT 1"],
            "ragpipe_help": [RAGPIPE, "--help"],
            "import_dagster": [sys.executable, "-c", "import dagster"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(n):
            for name, command in commands.items():
                times[name].append(_seconds(command, env))
    medians = {f"{name}_s": statistics.median(ts) for name, ts in times.items()}
    return {
        **medians,
        "sql_over_import_duckdb": medians["ragpipe_sql_s"] / medians["import_duckdb_s"],
        "help_over_import_duckdb": medians["ragpipe_help_s"] / medians["import_duckdb_s"],
        "runs_each": n,
    }


if __name__ == "__main__":
    main(run, "command start", __doc__.splitlines()[0], "5 runs of each instead of 20")
