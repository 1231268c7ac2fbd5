"""What a corpus holds once ingested: documents, pages, questions by kind,
needles kept and rejected, and the questions nothing can grade."""

from __future__ import annotations

import duckdb
import pandas as pd

from ragpipe.warehouse.tables import read_partition, table_exists


def _keys(questions: pd.DataFrame, needles: pd.DataFrame):
    """(question id, kind, has a key besides the yes/no, has a yes/no key) per question."""
    kept = set(needles.loc[needles["status"] == "kept", "question_id"])
    for row in questions.itertuples():
        other = (
            len(row.must_contain)
            or len(row.must_contain_any)
            or isinstance(row.money_key, str)
            or row.question_id in kept
        )
        yield row.question_id, row.kind, bool(other), isinstance(row.polarity, str)


def ungradable_questions(questions: pd.DataFrame, needles: pd.DataFrame) -> set[str]:
    """Questions that are not negative and have no authored needle, no money key, no yes/no
    key and no kept mined needle: nothing to grade any answer by."""
    return {q for q, kind, other, yes_no in _keys(questions, needles) if kind != "negative" and not (other or yes_no)}


def yes_no_only(questions: pd.DataFrame, needles: pd.DataFrame) -> set[str]:
    """Questions graded by the gold's Yes/No alone: an answer that states neither is graded
    `ungradable` (so the scorecard's ungradable answers can outnumber the ungradable questions)."""
    return {q for q, kind, other, yes_no in _keys(questions, needles) if kind != "negative" and yes_no and not other}


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
        "yes_no_only": len(yes_no_only(questions, needles)),
        "needles_kept": int((needles["status"] == "kept").sum()),
        "needles_rejected": int((needles["status"] == "rejected").sum()),
        "question_problems": len(problems),
    }
