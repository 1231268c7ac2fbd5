"""The answer log: every answer persisted the moment it completes.

A run killed at any point (even SIGKILL) leaves each finished answer here; the
next run with the same engine and settings asks only the questions that have
no answer yet. Errors are logged too, but they are not answers: they are
asked again.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from ragpipe.warehouse import append_new_rows, table_exists

TABLE = "answer_log"


def logged_answers(conn: duckdb.DuckDBPyConnection, corpus: str, config: str, answer_set: str, settings_key: str) -> dict[str, dict]:
    """question id -> the latest successful answer logged for this engine and settings."""
    if not table_exists(conn, TABLE):
        return {}
    frame = conn.execute(
        f"SELECT * EXCLUDE (settings_key, logged_at) FROM {TABLE} "
        "WHERE corpus = ? AND config = ? AND answer_set = ? AND settings_key = ? AND error IS NULL "
        "QUALIFY row_number() OVER (PARTITION BY question_id ORDER BY logged_at DESC) = 1",
        [corpus, config, answer_set, settings_key],
    ).df()
    return {r["question_id"]: r for r in frame.to_dict("records")}


def log_answer(conn: duckdb.DuckDBPyConnection, row: dict, settings_key: str) -> None:
    frame = pd.DataFrame([{**row, "settings_key": settings_key, "logged_at": pd.Timestamp.now(tz="UTC")}])
    append_new_rows(conn, TABLE, frame, ["answer_id", "settings_key", "logged_at"])
