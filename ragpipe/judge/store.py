"""The `judgments` table: every judgment ever stored, one row per (judge_id, input_key)."""

from __future__ import annotations

import pandas as pd

from ragpipe.judge.judgment import JudgmentRecord
from ragpipe.warehouse.tables import append_new_rows, replace_rows, table_exists

DECIDES_NO_VERDICT = "storage: keeps judgments, decides nothing"
TABLE = "judgments"
KEY = ["judge_id", "input_key"]


def judgments_frame(records: list[JudgmentRecord]) -> pd.DataFrame:
    """Judgment records as the table's frame, its number columns typed even when all are missing."""
    frame = JudgmentRecord.frame(records)
    return frame.astype(
        {"prompt_tokens": "Int64", "completion_tokens": "Int64", "latency_ms": "Float64", "cost": "Float64"}
        | {c: "string" for c in ("reason", "raw")}
    )


def warehouse_judgments(judge_id: str) -> pd.DataFrame:
    """Every judgment of one judge the project's warehouse holds, read-only (none without a warehouse):
    what `grade --judge` and `ragpipe.evaluate(judge=...)` reuse before asking."""
    from ragpipe.warehouse.settings import database_path
    from ragpipe.warehouse.sql import readonly_connection

    if not database_path().exists():
        return judgments_frame([])
    with readonly_connection(database_path()) as conn:
        return stored_judgments(conn, judge_id)


def stored_judgments(conn, judge_id: str) -> pd.DataFrame:
    """Every stored judgment of one judge (an empty frame when none, or no table yet)."""
    if not table_exists(conn, TABLE):
        return judgments_frame([])
    return conn.execute(f'SELECT * FROM "{TABLE}" WHERE judge_id = ? ORDER BY input_key', [judge_id]).df()


def store_judgments(conn, frame: pd.DataFrame, replace: bool = False) -> int:
    """Add `frame`'s judgments; a stored key is kept (asked once, kept) or, with `replace`, replaced (an
    imported line replaces the one before it). Returns how many rows were written."""
    frame = frame.drop_duplicates(KEY, keep="last")
    return replace_rows(conn, TABLE, frame, KEY) if replace else append_new_rows(conn, TABLE, frame, KEY)
