"""Verdict history: every verdict ever produced, never overwritten.

`grades` holds the current verdict per answer; `grade_history` keeps every
(answer, answer text, grader version) verdict with the run and time that
produced it, and `scorecard_history` every scorecard per grader version.
Recording the same verdict again is a no-op, so re-grading with an unchanged
grader is idempotent.
"""

from __future__ import annotations

import hashlib

import duckdb
import pandas as pd

from ragpipe.warehouse import append_new_rows, table_exists

HISTORY_KEY = ["answer_id", "grader_version", "answer_sha"]


def answer_sha(answer: str | None, citations) -> str:
    text = (answer or "") + "\0" + "\0".join(map(str, citations if citations is not None else []))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def with_provenance(grades: pd.DataFrame, answers: pd.DataFrame, run_id: str, graded_at: pd.Timestamp) -> pd.DataFrame:
    sha = {a: answer_sha(t, c) for a, t, c in zip(answers["answer_id"], answers["answer"], answers["citations"])}
    frame = grades.copy()
    frame["answer_sha"] = frame["answer_id"].map(sha)
    frame["run_id"] = run_id
    frame["graded_at"] = graded_at
    return frame


def record_grades(conn: duckdb.DuckDBPyConnection, grades: pd.DataFrame, answers: pd.DataFrame, run_id: str, graded_at: pd.Timestamp) -> int:
    """Append the verdicts not yet in `grade_history`; returns how many were new."""
    return append_new_rows(conn, "grade_history", with_provenance(grades, answers, run_id, graded_at), HISTORY_KEY)


def record_scorecards(conn: duckdb.DuckDBPyConnection, cards: pd.DataFrame, run_id: str, recorded_at: pd.Timestamp) -> int:
    frame = cards.assign(run_id=run_id, recorded_at=recorded_at)
    return append_new_rows(conn, "scorecard_history", frame, ["corpus", "config", "answer_set", "grader_version"])


def _scope(corpus: str | None, config: str | None) -> tuple[str, list]:
    return "(? IS NULL OR corpus = ?) AND (? IS NULL OR config = ?)", [corpus, corpus, config, config]


def grader_versions(conn: duckdb.DuckDBPyConnection, corpus: str | None = None, config: str | None = None) -> list[str]:
    """Grader versions in the order they first graded anything (in this scope)."""
    if not table_exists(conn, "grade_history"):
        return []
    where, params = _scope(corpus, config)
    rows = conn.execute(
        f"SELECT grader_version, min(graded_at) AS first FROM grade_history WHERE {where} "
        "GROUP BY ALL ORDER BY first, grader_version",
        params,
    ).fetchall()
    return [r[0] for r in rows]


def verdicts_at(conn: duckdb.DuckDBPyConnection, version: str, corpus: str | None = None, config: str | None = None) -> pd.DataFrame:
    """The latest verdict of each answer under one grader version."""
    where, params = _scope(corpus, config)
    return conn.execute(
        f"SELECT * FROM grade_history WHERE grader_version = ? AND {where} "
        "QUALIFY row_number() OVER (PARTITION BY answer_id ORDER BY graded_at DESC, answer_sha) = 1",
        [version, *params],
    ).df()
