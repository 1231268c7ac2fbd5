"""What-if: grade every stored answer with candidate rules and compare, recording nothing.

A pair graded with a judge is graded as a regrade would grade it under the candidate rules: its judge's
stored judgments applied where they decide (never asked anew), and its grader named for the judge. Rules
alone against judged grades would list every answer the judge decided as a flip the rules never made.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import duckdb
import pandas as pd

from ragpipe.grading.grade_table import grade_pair
from ragpipe.grading.rules import Rules
from ragpipe.history.delta import grade_delta
from ragpipe.warehouse.tables import table_exists

if TYPE_CHECKING:
    from ragpipe.judge.of_pair import PairJudging

JudgingOf = Callable[[str, str], "PairJudging"]  # (corpus, config) -> the pair's judging under the candidate rules


def stored_pairs(conn: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    if not table_exists(conn, "answers"):
        return []
    return [tuple(r) for r in conn.execute("SELECT DISTINCT corpus, config FROM answers ORDER BY ALL").fetchall()]


def regrade_in_memory(
    conn: duckdb.DuckDBPyConnection, rules: Rules, judging_of: JudgingOf | None = None
) -> pd.DataFrame:
    """Grades of every stored answer of every pair under `rules`, each pair with its judge's stored judgments
    applied where `judging_of` gives it one (nothing written, nobody asked)."""
    frames = [_pair(conn, corpus, config, rules, judging_of) for corpus, config in stored_pairs(conn)]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _pair(conn, corpus: str, config: str, rules: Rules, judging_of: JudgingOf | None) -> pd.DataFrame:
    from ragpipe.judge import graded_by_pair

    grades, answers = grade_pair(conn, corpus, config, rules)
    return grades if judging_of is None else graded_by_pair(conn, grades, answers, corpus, judging_of(corpus, config))


def whatif(conn: duckdb.DuckDBPyConnection, rules: Rules, judging_of: JudgingOf | None = None) -> dict:
    """The delta `rules` would cause against the current grades, each pair with its judge (`judging_of`)."""
    if not table_exists(conn, "grades"):
        raise LookupError("no stored grades yet: run `ragpipe run` first")
    current = conn.execute("SELECT * FROM grades").df()
    candidate = regrade_in_memory(conn, rules, judging_of)
    versions = sorted(set(current["grader_version"]))
    targets = sorted(set(candidate["grader_version"])) if len(candidate) else [rules.version]
    return {"from_version": ", ".join(versions), "to_version": ", ".join(targets), **grade_delta(current, candidate)}
