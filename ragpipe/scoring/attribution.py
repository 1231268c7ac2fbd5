"""Where each answer failed: retrieval or generation. A team's next effort goes where the misses are.

For an answerable question of an answer set that answered from the pair's
retrieval, the verdict is joined with whether the evidence (a golden page,
or a golden document where the corpus names no pages) was among the top_k
chunks the engine was handed:

- a wrong or partial answer with the evidence retrieved is a *generation miss*,
  without it a *retrieval miss*;
- a decline is *declined with evidence retrieved* (the engine had it and
  did not use it) or *declined without evidence* (a fair decline);
- a correct answer is *correct*; an ungradable one *ungradable*.

Answer sets whose engine retrieves for itself (a RAG service, imported
answers) get *retrieval unknown*; questions with no golden documents
(negatives) are not attributed.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ragpipe.answering.retrieving import RETRIEVING_ENGINES
from ragpipe.grading.grade import Verdict
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.row import Record


@dataclass(slots=True)
class Attributed(Record):
    corpus: str
    config: str
    answer_set: str
    question_id: str
    verdict: str
    declined: bool
    evidence_in_top_k: bool | None  # None: the engine did not answer from the pair's retrieval
    attribution: str


COUNTED = {
    "retrieval miss": "retrieval_miss",
    "generation miss": "generation_miss",
    "declined with evidence retrieved": "declined_with_evidence",
    "declined without evidence": "declined_without_evidence",
}


def _attribution(verdict: str, declined: bool, ungradable: bool, evidence: bool | None) -> str:
    if evidence is None:
        return "retrieval unknown"
    if ungradable:
        return "ungradable"
    if declined:
        return "declined with evidence retrieved" if evidence else "declined without evidence"
    if verdict == Verdict.CORRECT:
        return "correct"
    return "generation miss" if evidence else "retrieval miss"


def attribute(grades: pd.DataFrame, answers: pd.DataFrame, retrieval: pd.DataFrame) -> pd.DataFrame:
    """One row per graded answerable answer whose question has golden documents, in (answer set, question) order."""
    engines = answers.set_index("answer_id")["engine"]
    evidence = dict(zip(retrieval["question_id"], retrieval["evidence_in_top_k"])) if len(retrieval) else {}
    rows = []
    for g in records(grades.sort_values(["answer_set", "question_id"])):
        if g["kind"] != "answerable" or g["question_id"] not in evidence:
            continue
        seen = bool(evidence[g["question_id"]]) if engines.get(g["answer_id"]) in RETRIEVING_ENGINES else None
        rows.append(
            Attributed(
                corpus=g["corpus"],
                config=g["config"],
                answer_set=g["answer_set"],
                question_id=g["question_id"],
                verdict=g["verdict"],
                declined=bool(g["declined"]),
                evidence_in_top_k=seen,
                attribution=_attribution(g["verdict"], bool(g["declined"]), bool(g["ungradable"]), seen),
            )
        )
    return Attributed.frame(rows)


def attribution_counts(attributed: pd.DataFrame) -> dict[str, int]:
    """The four failure classes of one answer set, counted (scorecard columns)."""
    counts = attributed["attribution"].value_counts()
    return {column: int(counts.get(name, 0)) for name, column in COUNTED.items()}
