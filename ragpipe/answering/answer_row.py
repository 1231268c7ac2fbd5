"""One answer row: what an engine (or an imported file) answered to one question of a pair.

What is stored is capped: an answer at `MAX_ANSWER_CHARS` characters (the row's `truncated_from` then
holds its length in full), an error or a raw body at `MAX_NOTE_CHARS`. An 8 MB answer made a 260 MB
review report; the grader reads at most its `answers.max_chars` (20,000 by default) anyway."""

from __future__ import annotations

from dataclasses import dataclass, field

from ragpipe.warehouse.row import Record


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
    prompt_tokens: int | None = None  # as the endpoint reported them (usage), None where it did not
    completion_tokens: int | None = None
    engine: str = ""
    engine_settings: str = "{}"  # JSON, keys sorted: what the answer depends on besides the question
    error: str | None = None  # the engine's failure, if it failed
    raw: str | None = None  # a malformed body as the service sent it
    label: str | None = None  # a person's verdict, for labelled imports
    graded_as: str | None = None  # the kind to grade it as, when not the question's (labelled imports)
    truncated_from: int | None = None  # the answer's length in characters, when the stored text was cut


MAX_ANSWER_CHARS = 100_000
MAX_NOTE_CHARS = 20_000


def capped(text: str, limit: int) -> tuple[str, int | None]:
    """(`text` cut to `limit` characters, its full length if it was cut, else None)."""
    return (text, None) if len(text) <= limit else (text[:limit], len(text))


def capped_note(text: str) -> str:
    """An error or raw body as stored: cut at MAX_NOTE_CHARS, saying so at its end."""
    cut, full = capped(text, MAX_NOTE_CHARS)
    return cut if full is None else f"{cut} ... [cut: {full:,} characters in all]"
