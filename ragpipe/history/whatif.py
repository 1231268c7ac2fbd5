"""What-if: grade every stored answer with candidate rules and compare, recording nothing."""

from __future__ import annotations

import duckdb
import pandas as pd

from ragpipe.grading.grade_table import grade_pair
from ragpipe.grading.rules import Rules
from ragpipe.history.delta import grade_delta
from ragpipe.warehouse.tables import table_exists


def stored_pairs(conn: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    if not table_exists(conn, "answers"):
        return []
    return [tuple(r) for r in conn.execute("SELECT DISTINCT corpus, config FROM answers ORDER BY ALL").fetchall()]


def regrade_in_memory(conn: duckdb.DuckDBPyConnection, rules: Rules) -> pd.DataFrame:
    """Grades of every stored answer of every pair under `rules` (nothing written)."""
    frames = [grade_pair(conn, corpus, config, rules)[0] for corpus, config in stored_pairs(conn)]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def whatif(conn: duckdb.DuckDBPyConnection, rules: Rules) -> dict:
    """The delta `rules` would cause against the current grades."""
    if not table_exists(conn, "grades"):
        raise LookupError("no stored grades yet: run `ragpipe run` first")
    current = conn.execute("SELECT * FROM grades").df()
    candidate = regrade_in_memory(conn, rules)
    versions = sorted(set(current["grader_version"]))
    return {"from_version": ", ".join(versions), "to_version": rules.version, **grade_delta(current, candidate)}
