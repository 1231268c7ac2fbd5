"""The ledger: every verdict ever produced, every grading, every grader version.

- `grade_history` gets a row whenever an answer's verdict, or anything it
  depends on (grader version, answer text and citations, question row, kept
  needles: `input_sha`), differs from that answer's latest row. So the
  latest history row of every answer equals its row in `grades`, a revert
  is recorded as the change it is, and regrading with nothing changed adds
  nothing.
- `grading_events` has one row per grading of a pair (run or regrade): when,
  with which grader version, in which Dagster run. Deltas follow these
  events in time, whatever the versions.
- `grader_versions` keeps each version's rules text and code hash, so an old
  verdict can be read with the rules that produced it.
- `scorecard_history` keeps every scorecard per grader version.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd

from ragpipe.grading.rules import Rules
from ragpipe.inputs.fingerprint import answer_sha
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.tables import (
    append_changed_rows,
    append_new_rows,
    read_partition,
    replace_partition,
    table_exists,
    to_arrow,
    transaction,
    write_parquet,
)

VERDICT_COLUMNS = ["grader_version", "input_sha", "verdict", "declined", "failure", "rule"]
# an answer's latest row is the least by this key: the latest grading event, then the latest time, then the
# least answer_sha. One aggregate per answer (arg_min), never a window, which buffers every row it orders
# (docs/performance.md#a-long-history)
LATEST_KEY = "(-coalesce(event_seq, 0), -epoch_us(graded_at), answer_sha)"


def _ensure_ledger(conn: duckdb.DuckDBPyConnection) -> None:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS grader_versions (grader_version VARCHAR PRIMARY KEY, rules_text VARCHAR, "
        "code_sha VARCHAR, first_recorded TIMESTAMP WITH TIME ZONE)"
    )
    conn.execute(
        "CREATE TABLE IF NOT EXISTS grading_events (seq BIGINT PRIMARY KEY, corpus VARCHAR, config VARCHAR, "
        "grader_version VARCHAR, run_id VARCHAR, graded_at TIMESTAMP WITH TIME ZONE, "
        "answers BIGINT, history_rows BIGINT)"
    )


def record_grading(
    conn: duckdb.DuckDBPyConnection,
    corpus: str,
    config: str,
    grades: pd.DataFrame,
    answers: pd.DataFrame,
    rules: Rules,
    run_id: str,
    graded_at: pd.Timestamp,
) -> dict:
    """Record one grading of a pair, atomically: its event, its grader version, and the history rows
    of every answer whose verdict or inputs changed since its latest row. Returns the event."""
    sha = {a: answer_sha(t, c) for a, t, c in zip(answers["answer_id"], answers["answer"], answers["citations"])}
    with transaction(conn):
        _ensure_ledger(conn)
        conn.execute(
            "INSERT INTO grader_versions SELECT ?, ?, ?, ? WHERE NOT EXISTS "
            "(SELECT 1 FROM grader_versions WHERE grader_version = ?)",
            [rules.version, rules.rules_text, rules.code_sha, graded_at, rules.version],
        )
        seq = conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM grading_events").fetchall()[0][0]
        frame = grades.assign(
            answer_sha=grades["answer_id"].map(sha),
            run_id=run_id,
            graded_at=graded_at,
            event_seq=seq,
        )
        added = append_changed_rows(
            conn, "grade_history", frame, "answer_id", VERDICT_COLUMNS, LATEST_KEY, {"corpus": corpus, "config": config}
        )
        event = {
            "seq": int(seq),
            "corpus": corpus,
            "config": config,
            "grader_version": rules.version,
            "run_id": run_id,
            "graded_at": graded_at,
            "answers": len(grades),
            "history_rows": int(added),
        }
        conn.execute("INSERT INTO grading_events VALUES (?, ?, ?, ?, ?, ?, ?, ?)", list(event.values()))
    return event


def store_grading(
    conn: duckdb.DuckDBPyConnection,
    root: Path,
    grades: pd.DataFrame,
    keys: dict[str, str],
    rules: Rules,
    run_id: str,
    graded_at: pd.Timestamp,
) -> tuple[Path, dict]:
    """A pair's new grades and their history in ONE transaction: a kill between the two once left the grades
    new and the history old (no stale warning, `delta` saying 0 changed). Then the Parquet copy.
    Returns (Parquet path, grading event)."""
    answers = read_partition(conn, "answers", keys)
    arrow = to_arrow(grades)
    with transaction(conn):
        replace_partition(conn, "grades", grades, keys, arrow)
        event = record_grading(conn, keys["corpus"], keys["config"], grades, answers, rules, run_id, graded_at)
    return write_parquet(root, "grades", arrow, keys), event


def record_scorecards(
    conn: duckdb.DuckDBPyConnection, cards: pd.DataFrame, run_id: str, recorded_at: pd.Timestamp
) -> int:
    frame = cards.assign(run_id=run_id, recorded_at=recorded_at)
    return append_new_rows(conn, "scorecard_history", frame, ["corpus", "config", "answer_set", "grader_version"])


def _scope(corpus: str | None, config: str | None) -> tuple[str, list]:
    return "(? IS NULL OR corpus = ?) AND (? IS NULL OR config = ?)", [corpus, corpus, config, config]


def grading_events(
    conn: duckdb.DuckDBPyConnection, corpus: str | None = None, config: str | None = None
) -> pd.DataFrame:
    """The gradings of a scope, oldest first."""
    if not table_exists(conn, "grading_events"):
        return pd.DataFrame(
            columns=["seq", "corpus", "config", "grader_version", "run_id", "graded_at", "answers", "history_rows"]
        )
    where, params = _scope(corpus, config)
    return conn.execute(f"SELECT * FROM grading_events WHERE {where} ORDER BY seq", params).df()


def latest_event(conn: duckdb.DuckDBPyConnection, corpus: str, config: str) -> int | None:
    events = grading_events(conn, corpus, config)
    return int(events["seq"].iloc[-1]) if len(events) else None


def grader_versions(conn: duckdb.DuckDBPyConnection, corpus: str | None = None, config: str | None = None) -> list[str]:
    """Grader versions in the order they last graded anything (in this scope): the current one last."""
    if not table_exists(conn, "grade_history"):
        return []
    where, params = _scope(corpus, config)
    rows = conn.execute(
        f"SELECT grader_version, max(coalesce(event_seq, 0)) AS last_seq, max(graded_at) AS last_at FROM grade_history "
        f"WHERE {where} GROUP BY ALL ORDER BY last_seq, last_at, grader_version",
        params,
    ).fetchall()
    return [r[0] for r in rows]


def latest_rows(conn: duckdb.DuckDBPyConnection, where: str, params: list) -> pd.DataFrame:
    """Each answer's latest row of `grade_history` among the rows `where` selects."""
    return conn.execute(
        f"SELECT unnest(arg_min(h, {LATEST_KEY})) FROM grade_history h WHERE {where} GROUP BY answer_id", params
    ).df()


def verdicts_at(
    conn: duckdb.DuckDBPyConnection, version: str, corpus: str | None = None, config: str | None = None
) -> pd.DataFrame:
    """The latest verdict under one grader version of each answer the scope holds now (its `grades`): an
    answer set since removed is not compared, and its rows are not read."""
    where, params = _scope(corpus, config)
    if not table_exists(conn, "grades"):
        return latest_rows(conn, "FALSE", [])
    return latest_rows(
        conn,
        f"grader_version = ? AND {where} AND answer_id IN (SELECT answer_id FROM grades WHERE {where})",
        [version, *params, *params],
    )


# the rows the pair's gradings after one event up to another wrote (params: corpus, config, seq, at)
_MOVED_ROWS = "corpus = ? AND config = ? AND event_seq > ? AND event_seq <= ?"


def moved_between(conn: duckdb.DuckDBPyConnection, corpus: str, config: str, seq: int, at: int) -> pd.DataFrame:
    """The latest row, as of grading event `at`, of each answer of the pair that the gradings after event
    `seq` up to `at` wrote rows for: the only answers whose verdict or inputs moved in between."""
    return latest_rows(conn, _MOVED_ROWS, [corpus, config, seq, at])


def before_event(conn: duckdb.DuckDBPyConnection, corpus: str, config: str, seq: int, at: int) -> pd.DataFrame:
    """The rows as they stood right after grading event `seq` of the answers the gradings after it up to
    `at` wrote rows for (an answer first graded in between has none)."""
    return latest_rows(
        conn,
        f"corpus = ? AND config = ? AND coalesce(event_seq, 0) <= ? AND answer_id IN "
        f"(SELECT answer_id FROM grade_history WHERE {_MOVED_ROWS})",
        [corpus, config, seq, corpus, config, seq, at],
    )


def first_graded_at(conn: duckdb.DuckDBPyConnection, corpus: str, config: str, seq: int, at: int) -> int:
    """How many answers of the pair the gradings after event `seq` up to `at` graded for the first time."""
    return int(
        conn.execute(
            f"WITH moved AS (SELECT DISTINCT answer_id FROM grade_history WHERE {_MOVED_ROWS}) "
            "SELECT (SELECT count(*) FROM moved) - (SELECT count(DISTINCT answer_id) FROM grade_history WHERE "
            "corpus = ? AND config = ? AND coalesce(event_seq, 0) <= ? AND answer_id IN (SELECT answer_id FROM moved))",
            [corpus, config, seq, at, corpus, config, seq],
        ).fetchall()[0][0]
    )


def stored_rules(conn: duckdb.DuckDBPyConnection, version: str) -> dict | None:
    """The rules text and code hash a grader version was computed from, if the warehouse recorded it."""
    if not table_exists(conn, "grader_versions"):
        return None
    rows = conn.execute("SELECT * FROM grader_versions WHERE grader_version = ?", [version]).df()
    return records(rows)[0] if len(rows) else None
