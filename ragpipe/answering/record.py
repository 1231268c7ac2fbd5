"""One answer row: what an engine (or an imported file) answered to one question of a pair."""

from __future__ import annotations

from dataclasses import dataclass, field

from ragpipe.warehouse.record import Record


@dataclass(slots=True)
class AnswerRecord(Record):
    corpus: str
    config: str
    answer_set: str  # the system that answered: an engine's name, or an imported file's set
    question_id: str
    answer_id: str  # stable over regrades: hash of (corpus, config, answer_set, question_id)
    answer: str | None
    citations: list[str] = field(default_factory=list)  # document ids the answer cites
    cited_chunks: list[str] = field(default_factory=list)
    latency_ms: float | None = None
    engine: str = ""
    engine_settings: str = "{}"  # JSON, keys sorted: what the answer depends on besides the question
    error: str | None = None  # the engine's failure, if it failed
    raw: str | None = None  # a malformed body as the service sent it
    label: str | None = None  # a person's verdict, for labelled imports
    graded_as: str | None = None  # the kind to grade it as, when not the question's (labelled imports)
