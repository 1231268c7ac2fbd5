"""Long steps say how far they are: parsing PDFs, answering and grading report counts and rate as
Dagster log lines every tenth of the way once a second has passed (and the last line always), and draw a rich bar on the terminal that started the command
(`ragpipe run`, `ragpipe regrade`); piped output gets the log lines only."""

from __future__ import annotations

import os
import re
import subprocess

from dagster import DagsterInstance

from assets.runs.runner import regrade_in_one_run, regrade_pair
from assets.shared.progress import progress_reporter
from tests.commands import RAGPIPE, ragpipe_in_terminal
from tests.conftest import ROOT, warehouse_resources


class _Log:
    def __init__(self):
        self.lines: list[str] = []

    def info(self, line: str) -> None:
        self.lines.append(line)


class _Clock:
    """A clock that moves `step` seconds each time it is read: a step's pace without waiting for it."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_line_every_tenth_of_the_way_after_the_first_second_and_the_last_one_always():
    log = _Log()
    report = progress_reporter(log, "grading", "demo/default shard 0", clock=_Clock(0.002))  # 2.7 s for 1,350
    for done in range(0, 1351):
        report(done, 1350)
    # where the first second is past (0.002 s an item: item 499), then each tenth, and the last
    assert [int(line.split(":")[1].split()[0].replace(",", "")) for line in log.lines] == [
        499,
        540,
        675,
        810,
        945,
        1080,
        1215,
        1350,
    ]
    assert re.fullmatch(r"demo/default shard 0: 1,350 of 1,350 graded \([\d,.]+/s\)", log.lines[-1])


def test_a_step_done_within_a_second_logs_its_last_line_alone():
    log = _Log()
    report = progress_reporter(log, "grading", "demo/default", clock=_Clock(0.0001))
    for done in range(0, 32):
        report(done, 31)
    assert log.lines == [log.lines[-1]] and log.lines[0].startswith("demo/default: 31 of 31 graded (")


def _logged(instance: DagsterInstance, run_id: str) -> list[str]:
    return [e.user_message for e in instance.all_logs(run_id)]


def test_grading_reports_as_dagster_log_lines(demo_warehouse):
    instance = DagsterInstance.ephemeral()
    result = regrade_pair("demo", "default", instance=instance, resources=warehouse_resources(demo_warehouse))
    assert result.success
    said = [m for m in _logged(instance, result.run_id) if " graded" in m]
    assert said and re.fullmatch(r"demo/default shard 0: 31 of 31 graded \([\d,.]+/s\)", said[-1])
    in_one = regrade_in_one_run([("demo", "default")], instance=instance, resources=warehouse_resources(demo_warehouse))
    said = [m for m in _logged(instance, in_one.run_id) if " graded" in m]
    assert said and re.fullmatch(r"demo/default: 31 of 31 graded \([\d,.]+/s\)", said[-1])


def _on_a_terminal(env: dict, *args: str) -> str:
    """`ragpipe ARGS` with its output on a pseudo-terminal, as a person runs it; everything it wrote."""
    return ragpipe_in_terminal(env, *args, columns=80, plain=False, check=True)


def test_regrade_on_a_terminal_draws_a_bar_and_piped_does_not(demo_warehouse, tmp_path):
    env = {**os.environ, "RAGPIPE_WAREHOUSE": str(demo_warehouse), "DAGSTER_HOME": str(tmp_path / "dh")}
    env.pop("RAGPIPE_RULES", None)
    (tmp_path / "dh").mkdir()
    shown = _on_a_terminal(env, "regrade")
    assert "grading demo/default" in shown and "31/31" in shown
    piped = subprocess.run([RAGPIPE, "regrade"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert piped.returncode == 0 and "grading demo/default" not in piped.stdout + piped.stderr
