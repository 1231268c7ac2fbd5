"""The readings of an answer that can be switched off, like a check, to measure what each earns.

A check decides; a reading shapes what the checks see: the encoding repaired before anything is read,
the sources' voice set apart from the answer's own, hedges and corrected statements left unasserted.
`grade(..., off={"voice"})` grades as if the reading did not exist (the whole answer in its own voice,
every clause asserted, the text as it arrived), and `agreement --ablate` reports, beside each check,
what each reading moves toward people and away from them. Their ids share the checks' namespace.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SwitchableReading:
    id: str
    rules: str | None  # the rules.yaml section it reads, if any
    summary: str


READINGS = (
    SwitchableReading("repair", None, "encoding damage repaired before any reading (text/repair.py)"),
    SwitchableReading("voice", "attribution", "the sources' voice set apart from the answer's own (text/voice.py)"),
    SwitchableReading(
        "unasserted", None, "hedges, corrected statements and denied figures said, not asserted (text/unasserted.py)"
    ),
)
READING_IDS = frozenset(r.id for r in READINGS)
