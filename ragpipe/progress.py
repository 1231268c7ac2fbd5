"""Progress of a long answering run: a rich progress bar on the CLI, log lines elsewhere."""

from __future__ import annotations

import os
from typing import Callable

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


def progress_reporter(context, label: str) -> Callable[[int, int], None]:
    """A callback(done, total): a progress bar when RAGPIPE_PROGRESS_BAR is set (the CLI sets
    it), and a log line every tenth of the way in any case."""
    bar: Progress | None = None
    task = None
    last_logged = [-1]

    def report(done: int, total: int) -> None:
        nonlocal bar, task
        if os.environ.get("RAGPIPE_PROGRESS_BAR") and bar is None and total:
            bar = Progress(TextColumn(f"answering {label}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True)
            bar.start()
            task = bar.add_task(label, total=total)
        if bar is not None:
            bar.update(task, completed=done)
            if done >= total:
                bar.stop()
        step = max(1, total // 10)
        if done // step != last_logged[0] or done == total:
            last_logged[0] = done // step
            context.log.info(f"{label}: {done} of {total} answered")

    return report
