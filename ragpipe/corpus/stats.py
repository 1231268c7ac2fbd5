"""What a corpus holds once ingested: documents, pages, questions by kind,
needles kept and rejected, and the questions nothing can grade."""

from __future__ import annotations

import duckdb
import pandas as pd

from ragpipe.warehouse.tables import read_partition, table_exists


def ungradable_questions(questions: pd.DataFrame, needles: pd.DataFrame) -> set[str]:
    """Questions that are not negative and have no authored needle, no money key, no yes/no
    key and no kept mined needle: nothing to grade an answer by."""
    kept = set(needles.loc[needles["status"] == "kept", "question_id"])
    out = set()
    for row in questions.itertuples():
        authored = (
            len(row.must_contain)
            or len(row.must_contain_any)
            or isinstance(row.money_key, str)
            or isinstance(row.polarity, str)
        )
        if row.kind != "negative" and not authored and row.question_id not in kept:
            out.add(row.question_id)
    return out


def ungradable_reasons(questions: pd.DataFrame, needles: pd.DataFrame) -> dict[str, str]:
    """Why each ungradable question has nothing to grade by: what happened to its gold answer's candidates."""
    out = {}
    for qid in sorted(ungradable_questions(questions, needles)):
        rejected = needles.loc[needles["question_id"] == qid, "reason"].value_counts()
        if rejected.empty:
            out[qid] = "the gold answer offers no candidate (no figure, name or distinctive word)"
        else:
            out[qid] = "every candidate rejected: " + ", ".join(f"{reason} ({n})" for reason, n in rejected.items())
    return out


def corpus_stats(conn: duckdb.DuckDBPyConnection, corpus: str) -> dict:
    keys = {"corpus": corpus}
    documents = read_partition(conn, "documents", keys)
    questions = read_partition(conn, "questions", keys)
    needles = read_partition(conn, "needles", keys)
    problems = (
        read_partition(conn, "question_problems", keys) if table_exists(conn, "question_problems") else pd.DataFrame()
    )
    kinds = questions["kind"].value_counts().to_dict()
    return {
        "corpus": corpus,
        "documents": len(documents) + len(read_partition(conn, "failed_documents", keys)),
        "documents_failed": len(read_partition(conn, "failed_documents", keys)),
        "pages": int(documents["pages"].sum()),
        "questions": len(questions),
        "answerable": int(kinds.get("answerable", 0)),
        "negative": int(kinds.get("negative", 0)),
        "ambiguous": int(kinds.get("ambiguous", 0)),
        "ungradable": len(ungradable_questions(questions, needles)),
        "ungradable_questions": ungradable_reasons(questions, needles),
        "needles_kept": int((needles["status"] == "kept").sum()),
        "needles_rejected": int((needles["status"] == "rejected").sum()),
        "question_problems": len(problems),
    }
