"""The `human_labels` table: every label ever given, revisions kept; the label the warehouse received
last counts for its answer, and only while the answer still reads as it did (`input_sha`).

The order of receipt is `received`, a number the warehouse gives each row as it stores it (under the
write lock: 1, 2, 3, ..., never two alike), so no two labels tie and no date written in a file decides
which one counts: `labelled_at` is kept as information (when the person says they labelled). A table
from before `received` is numbered on its next write in the order that decided then (labelled_at, then
labeller), so that numbering moves no label; until then it is read in that order.

People's labels come from two places: this table (imports, the labelling page) and the `label` column
of imported labelled answer sets (FinanceBench's labelled files). `people_labels` reads both, this
table's latest label winning.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from ragpipe.labels.label import LABELS, HumanLabelRecord, seen_sha
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.tables import append_rows, has_column, read_partition, table_exists, transaction

RECEIVED = "received"
_OLD_ORDER = "labelled_at DESC, labeller DESC"  # what decided before `received`, and numbers old rows


def add_labels(conn: duckdb.DuckDBPyConnection, rows: list[HumanLabelRecord]) -> int:
    """Append labels in the order given, each received after every label stored (a revision is a new
    row; whether a line says anything new is the importer's to decide: labels/import_lines.py)."""
    if not rows:
        return 0
    frame = HumanLabelRecord.frame(rows)
    with transaction(conn):
        first = _number_old_rows(conn) + 1
        frame[RECEIVED] = range(first, first + len(frame))
        return append_rows(conn, "human_labels", frame)


def _number_old_rows(conn: duckdb.DuckDBPyConnection) -> int:
    """Give the rows stored before `received` their numbers (in the order that decided then); returns the
    highest number given so far (0 for no table)."""
    if not table_exists(conn, "human_labels"):
        return 0
    if not has_column(conn, "human_labels", RECEIVED):
        conn.execute(f"ALTER TABLE human_labels ADD COLUMN {RECEIVED} BIGINT")
    top = conn.execute(f"SELECT coalesce(max({RECEIVED}), 0) FROM human_labels").fetchall()[0][0]
    conn.execute(
        f"UPDATE human_labels SET {RECEIVED} = o.n FROM (SELECT rowid AS id, ? + row_number() OVER "
        f"(ORDER BY labelled_at, labeller, rowid) AS n FROM human_labels WHERE {RECEIVED} IS NULL) o "
        "WHERE human_labels.rowid = o.id",
        [top],
    )
    return conn.execute(f"SELECT coalesce(max({RECEIVED}), 0) FROM human_labels").fetchall()[0][0]


def counting(conn: duckdb.DuckDBPyConnection, answer_ids: set[str]) -> dict[str, tuple[str, str]]:
    """answer_id -> (label, input_sha) of the label that counts, for these answers (those labelled)."""
    if not answer_ids or not table_exists(conn, "human_labels"):
        return {}
    rows = conn.execute(
        "SELECT answer_id, label, input_sha FROM human_labels WHERE list_contains(?, answer_id) "
        f"QUALIFY row_number() OVER (PARTITION BY answer_id ORDER BY {latest_first(conn)}) = 1",
        [sorted(answer_ids)],
    ).fetchall()
    return {a: (label, sha) for a, label, sha in rows}


def latest_first(conn: duckdb.DuckDBPyConnection) -> str:
    """The SQL ordering that puts the label that counts first (received last; a table not yet numbered,
    read-only here, in the order that decided when it was written)."""
    if has_column(conn, "human_labels", RECEIVED):
        return f"{RECEIVED} DESC NULLS LAST, {_OLD_ORDER}"
    return _OLD_ORDER


def remove_label(conn: duckdb.DuckDBPyConnection, row: HumanLabelRecord) -> int:
    """Take back one label just given (the labelling page's undo): the row with its answer, labeller and
    time; the labels before it stand as they were."""
    where = "answer_id = ? AND labeller IS NOT DISTINCT FROM ? AND labelled_at = ?"
    params = [row.answer_id, row.labeller, row.labelled_at]
    gone = conn.execute(f"SELECT count(*) FROM human_labels WHERE {where}", params).fetchall()[0][0]
    conn.execute(f"DELETE FROM human_labels WHERE {where}", params)
    return gone


def current_answers(conn: duckdb.DuckDBPyConnection, corpus: str, config: str) -> pd.DataFrame:
    """The pair's answers with what a labeller reads of each, and its fingerprint."""
    answers = read_partition(conn, "answers", {"corpus": corpus, "config": config})
    questions = read_partition(conn, "questions", {"corpus": corpus})[["question_id", "text", "gold_answer", "kind"]]
    frame = answers.merge(questions, on="question_id", how="left")
    frame["input_sha"] = [
        seen_sha(r["text"] or "", r["gold_answer"] or "", r["answer"], r["citations"]) for r in records(frame)
    ]
    return frame


def latest_labels(conn: duckdb.DuckDBPyConnection, corpus: str, config: str) -> pd.DataFrame:
    """The label that counts for each labelled answer of the pair (received last), with `current`: the
    answer still reads as it did when labelled (a label of a changed answer no longer counts, and says so)."""
    columns = [*HumanLabelRecord.columns(), RECEIVED, "current"]
    if not table_exists(conn, "human_labels"):
        return pd.DataFrame(columns=columns)
    labels = conn.execute(
        "SELECT * FROM human_labels WHERE corpus = ? AND config = ? "
        f"QUALIFY row_number() OVER (PARTITION BY answer_id ORDER BY {latest_first(conn)}) = 1 "
        "ORDER BY answer_set, question_id",
        [corpus, config],
    ).df()
    now = current_answers(conn, corpus, config)[["answer_id", "input_sha"]].rename(columns={"input_sha": "now"})
    if RECEIVED not in labels:
        labels[RECEIVED] = None
    labels = labels.merge(now, on="answer_id", how="left")
    labels["current"] = labels["now"] == labels["input_sha"]
    return labels[columns]


def people_labels(conn: duckdb.DuckDBPyConnection, corpus: str, config: str, answers: pd.DataFrame) -> pd.Series:
    """answer_id -> people's class (HUMAN_CLASSES) for every labelled answer of the pair that counts."""
    imported = answers.loc[answers["label"].notna(), ["answer_id", "label"]] if "label" in answers else None
    out = dict(zip(imported["answer_id"], imported["label"])) if imported is not None else {}
    latest = latest_labels(conn, corpus, config)
    for answer_id, label, current in zip(latest["answer_id"], latest["label"], latest["current"]):
        if current:  # a label given on another text of the answer no longer counts
            out[answer_id] = LABELS[label]
    return pd.Series(out, dtype=object)
