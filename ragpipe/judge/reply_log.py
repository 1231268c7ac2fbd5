"""The judgment log: every judge reply persisted the moment it arrives.

A paid call is paid for when its reply arrives, not when the step that asked ends: a run killed while the
judge is asked (even by SIGKILL) leaves each judgment it received in a JSONL file of the warehouse, one
flushed line a reply, and the next judging step stores them before it works out what is missing, so it
asks only the rest. A line cut short by a kill is skipped. A log is locked (flock) while its step writes
it, and the lock goes with the process, however it ends: a file whose lock can be taken is of a step that
is over, and is removed once its judgments are stored; one still locked belongs to a step judging now (a
pair beside this one), whose judgments are stored and whose file is left to it.
"""

from __future__ import annotations

import fcntl
import json
from pathlib import Path

import duckdb

from ragpipe.inputs.jsonl import read_jsonl
from ragpipe.judge.judgment import JudgmentRecord
from ragpipe.judge.store import judgments_frame, store_judgments


def log_path(root: Path, judge_id: str, step: str) -> Path:
    """One judging step's log in the warehouse folder `root`: the judge, and the step (its pair and run)."""
    return root / "judgment_log" / f"{judge_id}--{step}.jsonl"


class JudgmentLog:
    """Appends each judgment as a flushed JSON line, as it arrives (called by `ask_missing`)."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._file = path.open("a", encoding="utf-8")
        fcntl.flock(self._file, fcntl.LOCK_EX)  # held until closed, or until the process dies

    def __call__(self, judgment: JudgmentRecord) -> None:
        self._file.write(json.dumps(judgment.row()) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def absorb_judgment_logs(conn: duckdb.DuckDBPyConnection, root: Path) -> int:
    """Store every logged judgment under `root`'s judgment_log/ (a key stored already is kept), and remove
    the files of steps that are over; returns the judgments added."""
    folder, added = root / "judgment_log", 0
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        with path.open("a", encoding="utf-8") as held:
            try:
                fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
                over = True
            except BlockingIOError:  # its step is judging now
                over = False
            records = [JudgmentRecord.from_row(row) for _, row in read_jsonl(path, [])]  # a cut line is no reply
            if records:
                added += store_judgments(conn, judgments_frame(records))
            if over:
                path.unlink()
    return added
