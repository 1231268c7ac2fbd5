"""Collector benchmark: the `ragpipe` command with what it imported set aside, against the same command without.

`ragpipe` freezes what its imports made (gc.freeze, ragpipe/cli/long_lived.py) so the cyclic
collector stops walking Dagster, pandas and the definitions on every pass, and so does the server the
multiprocess job forks its steps from (assets/deploy/set_aside.py). Side by side in one run, each in a
fresh warehouse and Dagster home: the demo's `ragpipe run` (a first run, then a second over the same
inputs), `ragpipe regrade`, and a run of the default pair in processes (`--shards 2 --processes`), as
the command runs them and with `gc.freeze` made a no-op and the step server's set-aside taken out of
its preload before the command starts. The rounds alternate (A B B A ...) so a machine that slows down mid-run
weighs on both. CPU seconds (user + system, the command and its children) are what is compared:
the suite and a shared machine are bound by CPU, not by waiting.

    python bench/collector.py [--quick] [--json]
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import main  # noqa: E402

# the `ragpipe` command itself (assets.cli:main), as the console script starts it
AS_SHIPPED = "import sys; from assets.cli import main; sys.argv[0] = 'ragpipe'; sys.exit(main())"
# the step server's preload list is the one its executor was configured with: taken out in place
UNFROZEN = (
    "import gc; gc.freeze = lambda: None; from assets.deploy.jobs import PRELOADED; "
    "PRELOADED.remove('assets.deploy.set_aside'); " + AS_SHIPPED
)
IN_PROCESSES = ["run", "--corpus", "demo", "--config", "default", "--shards", "2", "--processes"]
STEPS = {"first_run": ["run"], "second_run": ["run"], "regrade": ["regrade"], "in_processes": IN_PROCESSES}


def _cpu_seconds(code: str, args: list[str], env: dict) -> float:
    """User + system CPU of one command (and the processes it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _round(code: str) -> dict[str, float]:
    """The four commands in a fresh warehouse and Dagster home."""
    with tempfile.TemporaryDirectory(prefix="bench-collector-") as tmp:
        home = Path(tmp) / "dagster_home"
        home.mkdir()
        env = {**os.environ, "DAGSTER_HOME": str(home), "RAGPIPE_WAREHOUSE": str(Path(tmp) / "warehouse")}
        return {step: _cpu_seconds(code, args, env) for step, args in STEPS.items()}


def run(quick: bool) -> dict:
    # the first process of a fresh clone writes the project's bytecode and reads Dagster from a cold disk:
    # paid here, before either variant is timed
    subprocess.run([sys.executable, "-c", "import assets.definitions"], capture_output=True, check=True)
    order = ["shipped", "unfrozen"] if quick else ["shipped", "unfrozen", "unfrozen", "shipped", "shipped", "unfrozen"]
    seconds: dict[str, dict[str, list[float]]] = {v: {s: [] for s in STEPS} for v in ("shipped", "unfrozen")}
    for variant in order:
        for step, cpu in _round(AS_SHIPPED if variant == "shipped" else UNFROZEN).items():
            seconds[variant][step].append(cpu)
    result: dict = {}
    for step in STEPS:
        shipped, unfrozen = (statistics.median(seconds[v][step]) for v in ("shipped", "unfrozen"))
        result[f"{step}_cpu_s"] = round(shipped, 2)
        result[f"{step}_cpu_s_unfrozen"] = round(unfrozen, 2)
        result[f"{step}_cpu_ratio"] = round(shipped / unfrozen, 3)  # under 1: the freeze saves CPU
    result["rounds_each"] = len(order) // 2
    return result


if __name__ == "__main__":
    main(run, "collector: ragpipe with its imports set aside, and not", __doc__.splitlines()[0], "one round of each")
