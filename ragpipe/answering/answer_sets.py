"""Answer sets: the systems a pair holds, each stored, refreshed and removed on its own.

A pair (corpus, configuration) holds one answer set per system that answered
it: the configured engine's, any other engine run on it (`openai:MODEL`,
`http`, `import:FILE`, a named `--answer-set`), the corpus's imported labelled
sets. Storing a system's answers replaces that system's rows only, each set in
its own transaction; another system's rows are kept as they are, save answers
to a question the corpus no longer has (nothing can grade them). Removing a
set is an explicit call (`ragpipe answers remove`), never a side effect.
History keeps every verdict either way.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd

from ragpipe.warehouse.tables import read_partition, replace_partition, table_exists, transaction, write_parquet

# the tables with a row per answer, current state only (grade_history keeps the past)
PER_ANSWER_SET_TABLES = ("answers", "grades", "scorecards", "scorecard_slices", "failure_attribution")


def store_answer_sets(
    conn: duckdb.DuckDBPyConnection, root: Path, frame: pd.DataFrame, corpus: str, config: str, known: set[str]
):
    """Make `frame`'s rows the rows of each answer set it holds, leave the pair's other sets as they are,
    except their answers to questions the corpus no longer has (`known` are the ones it has), which
    nothing can grade; returns (every answer of the pair now, its Parquet copy's path, answers pruned)."""
    # token counts are whole numbers or NULL: typed so, whatever pandas made of a column with gaps
    frame = frame.astype({c: "Int64" for c in ("prompt_tokens", "completion_tokens") if c in frame})
    for answer_set, rows in frame.groupby("answer_set", sort=True):
        replace_partition(conn, "answers", rows, {"corpus": corpus, "config": config, "answer_set": answer_set})
    orphans = [q for q in _question_ids(conn, corpus, config) if q not in known]
    pruned = 0
    if orphans:
        where = f"corpus = ? AND config = ? AND question_id IN ({', '.join('?' * len(orphans))})"
        params = [corpus, config, *orphans]
        with transaction(conn):
            pruned = conn.execute(f"SELECT count(*) FROM answers WHERE {where}", params).fetchall()[0][0]
            conn.execute(f"DELETE FROM answers WHERE {where}", params)
    pair, path = pair_answers(conn, root, corpus, config)
    return pair, path, pruned


def _question_ids(conn, corpus: str, config: str) -> list[str]:
    rows = conn.execute(
        "SELECT DISTINCT question_id FROM answers WHERE corpus = ? AND config = ? ORDER BY 1", [corpus, config]
    ).fetchall()
    return [r[0] for r in rows]


def pair_answers(conn: duckdb.DuckDBPyConnection, root: Path, corpus: str, config: str):
    """Every answer of the pair, all sets, in a stable order, with its Parquet copy rewritten to match."""
    keys = {"corpus": corpus, "config": config}
    pair = read_partition(conn, "answers", keys, order_by="answer_set, question_id")
    return pair, write_parquet(root, "answers", pair, keys)


def answer_sets(conn: duckdb.DuckDBPyConnection, corpus: str, config: str) -> list[str]:
    if not table_exists(conn, "answers"):
        return []
    rows = conn.execute(
        "SELECT DISTINCT answer_set FROM answers WHERE corpus = ? AND config = ? ORDER BY 1", [corpus, config]
    ).fetchall()
    return [r[0] for r in rows]


def remove_answer_set(conn: duckdb.DuckDBPyConnection, root: Path, corpus: str, config: str, answer_set: str) -> dict:
    """Delete one answer set's current rows (answers, grades, scorecards, attribution) of one pair, in one
    transaction, and rewrite the pair's Parquet copies; grade_history keeps its verdicts. Returns rows
    removed per table; a set the pair does not hold is a LookupError naming the ones it does."""
    held = answer_sets(conn, corpus, config)
    if answer_set not in held:
        raise LookupError(
            f"{corpus}/{config} holds no answer set {answer_set!r}; it holds: {', '.join(held) or 'none'}"
        )
    removed = {}
    where = "corpus = ? AND config = ? AND answer_set = ?"
    with transaction(conn):
        for table in PER_ANSWER_SET_TABLES:
            if table_exists(conn, table):
                removed[table] = conn.execute(
                    f'SELECT count(*) FROM "{table}" WHERE {where}', [corpus, config, answer_set]
                ).fetchall()[0][0]
                conn.execute(f'DELETE FROM "{table}" WHERE {where}', [corpus, config, answer_set])
    for table in PER_ANSWER_SET_TABLES:
        if table_exists(conn, table):
            keys = {"corpus": corpus, "config": config}
            write_parquet(root, table, read_partition(conn, table, keys), keys)
    return removed


def stored_settings(conn: duckdb.DuckDBPyConnection, corpus: str, config: str, answer_set: str) -> dict | None:
    """The engine settings the pair's stored answers of `answer_set` were made with; None if it holds none."""
    import json

    if not table_exists(conn, "answers"):
        return None
    row = conn.execute(
        "SELECT engine_settings FROM answers WHERE corpus = ? AND config = ? AND answer_set = ? LIMIT 1",
        [corpus, config, answer_set],
    ).fetchone()
    return json.loads(row[0]) if row and row[0] else None
