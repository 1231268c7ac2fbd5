"""One person's verdict on one answer, as it was when they read it."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ragpipe.answering.labels import HUMAN_CLASSES
from ragpipe.inputs.fingerprint import seen_sha
from ragpipe.warehouse.row import Record

__all__ = ["seen_sha"]  # what a labeller judged, hashed as every input is (inputs/fingerprint.py)

LABELS = {"correct": HUMAN_CLASSES[0], "incorrect": HUMAN_CLASSES[1], "refusal": HUMAN_CLASSES[2]}
MAX_LABELLER_CHARS = 100
_UNSEEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # controls, format marks, unassigned, line separators


def _named(c: str) -> str:
    return unicodedata.name(c, "a control character").lower()


def labeller_refused(name: str) -> str | None:
    """Why `name` cannot be a labeller's (one rule for the page and for files: what one stores, the other
    reads back), or None."""
    if not name.strip():
        return "a labeller is named: give a name that is not blank"
    hidden = next((c for c in name if unicodedata.category(c) in _UNSEEN), None)
    if hidden is not None:  # a zero-width space, ESC, a line break: two names that look one, or a forged line
        return f"a labeller's name is letters and signs one can see, not U+{ord(hidden):04X} ({_named(hidden)})"
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
