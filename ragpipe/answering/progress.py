"""Progress of a long answering run: a rich progress bar on the CLI, log lines elsewhere."""

from __future__ import annotations

from collections.abc import Callable

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


def progress_reporter(log, label: str, show_bar: bool = False) -> Callable[[int, int], None]:
    """A callback(done, total): a progress bar with `show_bar` (a run started from a terminal),
    and a line to `log` (a logger) every tenth of the way in any case."""
    bar: Progress | None = None
    task = None
    last_logged = [-1]

    def report(done: int, total: int) -> None:
        nonlocal bar, task
        if show_bar and bar is None and total:
            bar = Progress(
                TextColumn(f"answering {label}", markup=False),  # a set's name is never markup
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                transient=True,
            )
            bar.start()
            task = bar.add_task(label, total=total)
        if bar is not None:
            bar.update(task, completed=done)
            if done >= total:
                bar.stop()
        step = max(1, total // 10)
        if done // step != last_logged[0] or done == total:
            last_logged[0] = done // step
            log.info(f"{label}: {done} of {total} answered")

    return report
