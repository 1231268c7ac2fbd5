"""The answer log: every answer persisted the moment it completes.

A run killed at any point (even SIGKILL) leaves each finished answer here; the
next run with the same engine and settings asks only the questions that have
no answer yet. Errors are logged too, but they are not answers: they are
asked again.

Shard processes do not write to DuckDB (one writer): each appends its answers
to its own JSONL file, one flushed line per answer, and the writer absorbs the
files into the `answer_log` table before it plans the next run and after it
stores the answers. A line cut short by a kill is skipped.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pandas as pd

from ragpipe.inputs.jsonl import read_jsonl
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.tables import append_new_rows, table_exists

TABLE = "answer_log"


def logged_answers(
    conn: duckdb.DuckDBPyConnection, corpus: str, config: str, answer_set: str, settings_key: str
) -> dict[str, dict]:
    """question id -> the latest successful answer logged for this engine and settings."""
    if not table_exists(conn, TABLE):
        return {}
    frame = conn.execute(
        f"SELECT * EXCLUDE (settings_key, logged_at) FROM {TABLE} "
        "WHERE corpus = ? AND config = ? AND answer_set = ? AND settings_key = ? AND error IS NULL "
        "QUALIFY row_number() OVER (PARTITION BY question_id ORDER BY logged_at DESC) = 1",
        [corpus, config, answer_set, settings_key],
    ).df()
    return {r["question_id"]: r for r in records(frame)}


def log_dir(root: Path, corpus: str, config: str) -> Path:
    return root / "answer_log" / f"corpus={corpus}" / f"config={config}"


class FileLog:
    """One shard's answer log: a JSONL file appended (and flushed) as each answer completes."""

    def __init__(self, path: Path, settings_key: str):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path, self.settings_key = path, settings_key
        self._file = path.open("a", encoding="utf-8")

    def __call__(self, row: dict) -> None:
        record = {**row, "settings_key": self.settings_key, "logged_at": pd.Timestamp.now(tz="UTC").isoformat()}
        self._file.write(json.dumps(record, default=_plain) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def _plain(value):
    """numpy arrays and scalars (what a warehouse row holds) as JSON."""
    return value.tolist() if hasattr(value, "tolist") else str(value)


def absorb_file_logs(conn: duckdb.DuckDBPyConnection, folder: Path) -> int:
    """Move every shard log under `folder` into the `answer_log` table; returns rows added."""
    added = 0
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        rows = [row for _, row in read_jsonl(path, [])]  # a line cut short by a kill is not an answer
        if rows:
            frame = pd.DataFrame(rows)
            # ISO 8601 per value: a time on a whole second has no microseconds, and a format guessed from the
            # first row failed on it
            frame["logged_at"] = pd.to_datetime(frame["logged_at"], utc=True, format="ISO8601")
            added += append_new_rows(conn, TABLE, frame, ["answer_id", "settings_key", "logged_at"])
        path.unlink()
    return added


def logged_in_file(path: Path, settings_key: str) -> dict[str, dict]:
    """question id -> a successful answer already in one shard's log file: a step run again on the same
    shard of the same run (a Celery task redelivered after its worker was killed) asks only the rest."""
    if not path.is_file():
        return {}
    rows = [row for _, row in read_jsonl(path, [])]
    return {
        r["question_id"]: {k: v for k, v in r.items() if k not in ("settings_key", "logged_at")}
        for r in rows
        if r.get("settings_key") == settings_key and r.get("error") is None
    }
