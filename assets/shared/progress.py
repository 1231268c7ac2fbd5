"""Progress of a long step (parsing PDFs, answering, grading): a rich bar with counts and rate on the
terminal that started the run, and a Dagster log line every tenth of the way once it has taken a second,
rate included (a step over in under a second logs its last line alone: each line is an event stored)."""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

from ragpipe.inputs.terminal import PrintableConsole


class _Rate(ProgressColumn):
    """Items a second, once there is a rate to show."""

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if not speed else f"{speed:,.1f}/s", style="progress.data.speed")


def progress_reporter(
    log, verb: str, label: str, show_bar: bool = False, clock: Callable[[], float] = time.monotonic
) -> Callable[[int, int], None]:
    """A callback(done, total) for a step that `verb`s (parses, answers, grades) `total` items: a bar with
        `show_bar` (a run started from a terminal), and a line to `log` every tenth of the way after the first
    second, and at the end:
        "demo/default shard 0: 620 of 1,350 graded (2,310/s)"."""
    bar: Progress | None = None
    task = None
    last_logged = -1  # the tenth of the way last logged
    started = clock()

    def report(done: int, total: int) -> None:
        nonlocal bar, task, last_logged
        if show_bar and bar is None and total:
            bar = Progress(
                TextColumn(f"{verb} {label}", markup=False),  # a set's or corpus's name is never markup
                BarColumn(),
                MofNCompleteColumn(),
                _Rate(),
                TimeElapsedColumn(),
                transient=True,
                # the command saw a terminal; inside a step Dagster tees stdout to its compute log, a pipe
                console=PrintableConsole(force_terminal=True),
            )
            bar.start()
            task = bar.add_task(label, total=total)
        if bar is not None:
            bar.update(task, completed=done)
            if done >= total:
                bar.stop()
        step = max(1, total // 10)
        elapsed = clock() - started
        if (done // step != last_logged and elapsed >= 1) or done == total:
            last_logged = done // step
            rate = f" ({done / elapsed:,.1f}/s)" if done and elapsed > 0 else ""
            log.info(f"{label}: {done:,} of {total:,} {_past(verb)}{rate}")

    return report


def _past(verb: str) -> str:
    """ "grading" -> "graded", "parsing" -> "parsed", "answering" -> "answered"."""
    return verb.removesuffix("ing") + "ed"
