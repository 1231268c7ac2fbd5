"""A labelling session over the warehouse: the drawn sample as page items, the labels so far, and the
write of one label, each under the warehouse's write lock for as long as it takes.

The page serves requests on several threads, and DuckDB refuses a read-only connection to a file this
process holds read-write (and the other way round): a page load during a click lost the click. So one
lock owns the warehouse for the process, and every read and write of the page takes it in turn.
"""

from __future__ import annotations

import sys
import threading

from ragpipe.labels.label import HumanLabelRecord
from ragpipe.labels.sample import recorded_sample
from ragpipe.labels.store import add_labels, current_answers, latest_labels, remove_label
from ragpipe.review.cited import cited_passages
from ragpipe.review.label_page import Item, Session
from ragpipe.warehouse.lock import open_for_writing, writing
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.settings import database_path, warehouse_dir
from ragpipe.warehouse.sql import readonly_connection
from ragpipe.warehouse.tables import read_partition


def open_session(corpus: str, config: str, answer_set: str, n: int, seed: int, labeller: str) -> Session:
    from ragpipe.labels.import_lines import now_iso
    from ragpipe.review.annotate import annotate

    with writing(warehouse_dir(), "ragpipe label"):
        conn = open_for_writing(database_path())
        try:
            answers = current_answers(conn, corpus, config)
            answers = answers[answers["answer_set"] == answer_set]
            picked = recorded_sample(conn, corpus, config, answer_set, n, seed, answers["answer_id"], now_iso())
            grades = read_partition(conn, "grades", {"corpus": corpus, "config": config})
            cited = answers[answers["answer_id"].isin(picked)].get("cited_chunks", [])
            passages = cited_passages(conn, corpus, config, {c for chunks in cited for c in _listed(chunks)})
        finally:
            conn.close()
    by_answer = {r["answer_id"]: r for r in records(answers)}
    graded = {r["answer_id"]: r for r in records(grades)}
    items = []
    for answer_id in picked:
        a, g = by_answer[answer_id], graded.get(answer_id, {})
        runs = annotate(a["answer"] or "", g.get("matched"))
        items.append(
            Item(
                answer_id,
                a["question_id"],
                a["text"] or "",
                a["gold_answer"] or "",
                runs,
                g.get("verdict", "not graded"),
                g.get("rule", ""),
                a["input_sha"],
                a.get("kind") or "answerable",
                [passages[c] for c in _listed(a.get("cited_chunks")) if c in passages],
                _listed(a.get("citations")),
            )  # fmt: skip
        )

    owner = threading.Lock()  # the one way to the warehouse in this process

    def labelled() -> dict[str, str]:
        with owner, readonly_connection(database_path()) as conn:
            latest = latest_labels(conn, corpus, config)
        latest = latest[latest["current"] & latest["answer_id"].isin(picked)]
        return dict(zip(latest["answer_id"], latest["label"]))

    def waiting(who: str) -> None:  # the labeller's terminal says why a click takes long
        print(f"a click waits to be stored: {who}; it is stored once that ends", file=sys.stderr, flush=True)

    def store(row: HumanLabelRecord) -> None:
        with owner, writing(warehouse_dir(), "ragpipe label", on_wait=waiting):
            conn = open_for_writing(database_path())
            try:
                add_labels(conn, [row])
            finally:
                conn.close()

    def remove(row: HumanLabelRecord) -> None:
        with owner, writing(warehouse_dir(), "ragpipe label"):
            conn = open_for_writing(database_path())
            try:
                remove_label(conn, row)
            finally:
                conn.close()

    return Session(corpus, config, answer_set, labeller, items, labelled, store, remove)


def _listed(value) -> list[str]:
    """A list cell (a list, an array, or None) as a list of strings."""
    return [] if value is None else [str(v) for v in value]
