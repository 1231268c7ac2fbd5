"""The answers a person labels: drawn at random, seeded, and recorded.

The estimate of people's accuracy (scoring/calibration.py) is unbiased only when the labelled answers
are a uniform random sample of the set. So the labelling page never lets anyone pick: it draws `n` of
the set's answers (sorted by id, then numpy's generator with the given seed) and stores the draw in
`label_samples`; the same set, n and seed give the same draw, and a restarted page resumes it.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import numpy as np

from ragpipe.warehouse.row import Record
from ragpipe.warehouse.tables import append_new_rows, table_exists


@dataclass(slots=True)
class SampleRecord(Record):
    corpus: str
    config: str
    answer_set: str
    seed: int
    n: int
    position: int
    answer_id: str
    drawn_at: str


def draw(answer_ids: list[str], n: int, seed: int) -> list[str]:
    """`n` of `answer_ids` uniformly at random without replacement, in the order drawn."""
    ordered = sorted(answer_ids)
    picks = np.random.default_rng(seed).choice(len(ordered), size=min(n, len(ordered)), replace=False)
    return [ordered[i] for i in picks]


def recorded_sample(
    conn: duckdb.DuckDBPyConnection, corpus: str, config: str, answer_set: str, n: int, seed: int, answer_ids, when
) -> list[str]:
    """The draw for (pair, set, n, seed): the stored one when it exists, else drawn now and stored."""
    if table_exists(conn, "label_samples"):
        stored = conn.execute(
            "SELECT answer_id FROM label_samples WHERE corpus = ? AND config = ? AND answer_set = ? AND n = ? "
            "AND seed = ? ORDER BY position",
            [corpus, config, answer_set, n, seed],
        ).fetchall()
        if stored:
            return [a for (a,) in stored]
    picked = draw(list(answer_ids), n, seed)
    rows = [SampleRecord(corpus, config, answer_set, seed, n, i, a, when) for i, a in enumerate(picked)]
    append_new_rows(conn, "label_samples", SampleRecord.frame(rows), ["corpus", "config", "answer_set", "n", "seed"])
    return picked
