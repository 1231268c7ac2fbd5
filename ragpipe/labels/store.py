"""The `human_labels` table: every label ever given, revisions kept; the latest per answer counts, and
only while the answer still reads as it did (`input_sha`).

People's labels come from two places: this table (imports, the labelling page) and the `label` column
of imported labelled answer sets (FinanceBench's labelled files). `people_labels` reads both, this
table's latest label winning.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from ragpipe.labels.record import LABELS, HumanLabelRecord, seen_sha
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.tables import append_new_rows, read_partition, table_exists

_KEY = ["answer_id", "labelled_at", "labeller", "label", "input_sha"]


def add_labels(conn: duckdb.DuckDBPyConnection, rows: list[HumanLabelRecord]) -> int:
    """Append labels (a revision is a new row; an identical row twice is stored once)."""
    if not rows:
        return 0
    return append_new_rows(conn, "human_labels", HumanLabelRecord.frame(rows), _KEY)


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
    """The latest label of each labelled answer of the pair, with `current`: the answer still reads as
    it did when labelled (a label of a changed answer no longer counts, and says so)."""
    columns = [*HumanLabelRecord.columns(), "current"]
    if not table_exists(conn, "human_labels"):
        return pd.DataFrame(columns=columns)
    labels = conn.execute(
        "SELECT * FROM human_labels WHERE corpus = ? AND config = ? "
        "QUALIFY row_number() OVER (PARTITION BY answer_id ORDER BY labelled_at DESC, labeller DESC) = 1 "
        "ORDER BY answer_set, question_id",
        [corpus, config],
    ).df()
    now = current_answers(conn, corpus, config)[["answer_id", "input_sha"]].rename(columns={"input_sha": "now"})
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
