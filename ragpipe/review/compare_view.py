"""The review report's compare view: two answer sets side by side per question, the flips first."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ragpipe.review.data import load_review
from ragpipe.scoring.compare import compare
from ragpipe.scoring.scorecard import pair_retrieval


@dataclass
class CompareView:
    corpus: str
    a: str  # "config / answer set"
    b: str
    result: dict  # what `ragpipe compare --json` says
    pairs: list[tuple[dict, dict, bool]]  # (A's row, B's row, flipped), flips first, then by question
    grader_version: str


def _evidence(conn, corpus: str, config: str) -> dict[str, bool]:
    retrieval = pair_retrieval(conn, corpus, config)
    return dict(zip(retrieval["question_id"], retrieval["evidence_in_top_k"])) if len(retrieval) else {}


def load_compare(conn, corpus: str, a_config: str, a: str, b_config: str, b: str) -> CompareView:
    """Both sets' review rows (answers, verdicts, marks) paired by question; a set the pair lacks is a
    ReviewError naming the ones it holds."""
    side_a = load_review(conn, corpus, a_config, a, audit_size=1)
    side_b = load_review(conn, corpus, b_config, b, audit_size=1)
    result = compare(a, _grades_of(side_a.rows), b, _grades_of(side_b.rows))
    rows_a = {r["question_id"]: r for r in side_a.rows}
    rows_b = {r["question_id"]: r for r in side_b.rows}
    evidence = {"a": _evidence(conn, corpus, a_config), "b": _evidence(conn, corpus, b_config)}
    flipped = {f["question_id"] for f in result["flips"]}
    pairs = []
    for qid in sorted(set(rows_a) & set(rows_b), key=lambda q: (q not in flipped, q)):
        ra = {**rows_a[qid], "evidence": evidence["a"].get(qid)}
        rb = {**rows_b[qid], "evidence": evidence["b"].get(qid)}
        pairs.append((ra, rb, qid in flipped))
    return CompareView(corpus, f"{a_config} / {a}", f"{b_config} / {b}", result, pairs, side_a.grader_version)


def _grades_of(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["question_id", "verdict", "declined", "rule"])
