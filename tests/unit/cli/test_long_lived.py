"""The `ragpipe` command sets what its imports made aside from the cyclic collector (ragpipe/cli/long_lived.py),
and garbage made afterwards is still collected. Each case runs in a process of its own: freezing is
process-wide, and the test workers freeze their own imports (tests/conftest.py)."""

import subprocess
import sys

from tests.conftest import ROOT


def _python(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_what_was_imported_is_set_aside_and_later_cycles_are_still_collected():
    before, after, collected = map(
        int,
        _python(
            """
import gc
import pandas
from ragpipe.cli.long_lived import set_aside_imports
before = gc.get_freeze_count()
set_aside_imports()
after = gc.get_freeze_count()
a, b = [], []
a.append(b); b.append(a)  # a cycle made after the freeze
del a, b
print(before, after, gc.collect())
"""
        ),
    )
    assert before == 0 and after > 10_000  # pandas alone is tens of thousands of objects
    assert collected >= 2  # the two lists of the cycle: the collector still frees what came later


def test_a_command_runs_with_its_modules_set_aside_and_dagster_is_set_aside_when_loaded():
    at_command, before_dagster, after_dagster = map(
        int,
        _python(
            """
import gc, sys
import typer
from ragpipe.cli.app import app
from ragpipe.cli.main import main

@app.command("freeze-count")
def freeze_count():
    print(gc.get_freeze_count())
    import assets.cli
    before = gc.get_freeze_count()
    assets.cli._dagster()  # what the first materializing command calls
    print(before, gc.get_freeze_count())

sys.argv = ["ragpipe", "freeze-count"]
try:
    main(lambda: None)
except SystemExit as e:
    assert not e.code, e.code
"""
        ),
    )
    assert at_command > 10_000  # the commands' modules, set aside before the command ran
    assert after_dagster > before_dagster + 10_000  # Dagster and the definitions, once imported


def test_a_step_forked_from_the_step_server_starts_with_what_the_server_imported_set_aside():
    """The multiprocess job's steps are forked from a server that preloads the definitions
    (assets/deploy/jobs.py): the server's preload sets them aside, so each step inherits them so."""
    server, here = map(
        int,
        _python(
            """
import gc, multiprocessing
from concurrent.futures import ProcessPoolExecutor
from assets.deploy.jobs import PRELOADED
context = multiprocessing.get_context("forkserver")
context.set_forkserver_preload(PRELOADED)
with ProcessPoolExecutor(1, mp_context=context) as pool:  # a worker lost is an error here, not a wait
    print(pool.submit(gc.get_freeze_count).result(timeout=240), gc.get_freeze_count())
"""
        ),
    )
    assert here == 0  # this process set nothing aside: the count is the step's own inheritance
    assert server > 100_000  # Dagster and the definitions, as the server imported them


def test_the_step_server_runs_no_allocator_thread_a_fork_could_hang_on():
    """A step is forked from the server; a thread holding a lock at the fork leaves the step waiting on it
    forever. pyarrow's jemalloc starts one on import unless told not to (assets/deploy/jobs.py)."""
    code = (
        "import os\nfrom assets.deploy.jobs import PRELOADED\nimport importlib\n"
        "for m in PRELOADED: importlib.import_module(m)\n"
        "print(sorted(open(f'/proc/self/task/{t}/comm').read().strip() for t in os.listdir('/proc/self/task')))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "jemalloc_bg_thd" not in done.stdout
