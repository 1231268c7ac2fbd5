"""One person's verdict on one answer, as it was when they read it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ragpipe.answering.labels import HUMAN_CLASSES
from ragpipe.warehouse.record import Record

LABELS = {"correct": HUMAN_CLASSES[0], "incorrect": HUMAN_CLASSES[1], "refusal": HUMAN_CLASSES[2]}
MAX_LABELLER_CHARS = 100


def labeller_refused(name: str) -> str | None:
    """Why `name` cannot be a labeller's (one rule for the page and for files: what one stores, the other
    reads back), or None."""
    if not name.strip():
        return "a labeller is named: give a name that is not blank"
    if len(name) > MAX_LABELLER_CHARS:
        return f"a labeller's name is at most {MAX_LABELLER_CHARS} characters, not {len(name):,}"
    return None


@dataclass(slots=True)
class HumanLabelRecord(Record):
    corpus: str
    config: str
    answer_set: str
    question_id: str
    answer_id: str
    input_sha: str  # what the person read: question, gold answer, answer text, citations (seen_sha)
    label: str  # correct | incorrect | refusal
    labeller: str
    labelled_at: str  # ISO 8601, UTC
    note: str | None
    source: str  # how it came: import FILE, the labelling page, ...


def seen_sha(question: str, gold_answer: str, answer: str | None, citations) -> str:
    """The fingerprint of what a labeller judged. A label counts while the answer (and the question and
    gold answer it was judged against) still read the same; a regraded answer keeps its labels, an
    answer whose text changed does not."""
    parts = [question, gold_answer, answer or "", *map(str, citations if citations is not None else [])]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]
