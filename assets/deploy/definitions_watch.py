"""The UI's definitions read again when what they say about the grader moves: the warehouse was graded again
(a `ragpipe regrade` from a terminal, a run from the UI), or the rules file or configs.yaml was edited.

The definitions compute, as they load, the grader they grade with and the line that leads grades' and
scorecards' descriptions when some pair was graded by another (assets/grading/behind.py: `said_at_load`).
That line is read at load only: after a regrade it outlived the fix ("3 of 3 pairs' scorecards are by
another grader than the one loaded" beside a green check) until someone clicked "Reload definitions".
The webserver's process watches, every few seconds, the latest grading event and the two files' stamps, and
reloads its workspace when one moved, as the button does.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

from ragpipe.grading.rules import DEFAULT_RULES
from ragpipe.warehouse.lock import WarehouseBusy, open_read_only
from ragpipe.warehouse.settings import corpora_dir, database_path, rules_path
from ragpipe.warehouse.tables import table_exists

EVERY = 5.0  # seconds between looks: a reload after a regrade is seen within this


def grader_state(database: Path, files: tuple[Path, ...]) -> tuple | None:
    """What the definitions' grader line depends on: the latest grading event and the files' stamps; None
    while the warehouse is busy (the next look reads it)."""
    stamps = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) if f.exists() else (str(f),) for f in files)
    if not database.exists():
        return (None, stamps)
    try:
        conn = open_read_only(database, wait=0)
    except (WarehouseBusy, OSError):
        return None
    with conn:
        if not table_exists(conn, "grading_events"):
            return (None, stamps)
        (latest,) = conn.execute("SELECT max(seq) FROM grading_events").fetchone()
    return (latest, stamps)


class DefinitionsWatch(threading.Thread):
    """Calls `reload()` whenever `grader_state` moves from what it was at the last look (never at the first)."""

    def __init__(self, reload: Callable[[], object], every: float = EVERY):
        super().__init__(name="definitions-watch", daemon=True)
        self.reload, self.every, self.stopped = reload, every, threading.Event()
        self.files = (rules_path() or DEFAULT_RULES, corpora_dir() / "configs.yaml")
        self.database = database_path()

    def run(self) -> None:
        seen = grader_state(self.database, self.files)
        while not self.stopped.wait(self.every):
            now = grader_state(self.database, self.files)
            if now is None or now == seen:
                continue
            if seen is not None:
                try:
                    self.reload()
                except Exception:  # noqa: BLE001 - a reload that fails is Dagster's to show; the next move retries
                    logging.getLogger("dagster-webserver").warning("reloading the definitions failed", exc_info=True)
                    continue
            seen = now
