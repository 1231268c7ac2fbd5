"""A judge's track record: where people's labels show it reads better than the rules, and where not.

Per question kind and the rule that decided before the judge, over labelled answers the judge decided:
how many people agree with the rules' verdict and how many with the judge's. Where a cell has labels,
the judge overturns the rules there only if it agrees with people more often than they do (a tie
keeps the rules: a change of ruler needs evidence); a cell without labels is the judge's as before.
The cells it does not win are held like a `keep:` entry (judge/keep.py), so they are neither asked
about nor overturned, and they are part of the grader version (`+k-...`).

`ragpipe agreement --judge NAME --labels FILE --record` measures the record on a labelled set and
writes it to `judge-records/<judge id>.json` beside the judges' configuration; loading the judge
reads it (judge/config.py). A record belongs to one judge identity: another model or prompt starts
with none.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from ragpipe.judge.keep import KeepRule

RECORDS_DIR = "judge-records"


class TrackCell(BaseModel):
    """People's agreement with the rules and with the judge over the same judged answers of one cell."""

    model_config = ConfigDict(frozen=True, extra="ignore")
    kind: str
    rule: str
    n: int = Field(ge=0)
    rules_agree: int = Field(ge=0)
    judge_agree: int = Field(ge=0)

    @property
    def overturns(self) -> bool:
        """The judge may decide this cell: people agree with it more often than with the rules."""
        return self.judge_agree > self.rules_agree


class LabelledRecord(BaseModel):
    """The cells measured on one labelled set."""

    labels: int = Field(ge=0, description="labelled answers the set holds")
    measured: str = Field(description="when, as an ISO date")
    cells: list[TrackCell]


class TrackRecord(BaseModel):
    """A judge's cells, per labelled set it was measured on (measuring on a set again replaces its cells)."""

    judge: str
    judge_id: str
    sets: dict[str, LabelledRecord] = Field(default_factory=dict)

    def cells(self) -> list[TrackCell]:
        """The cells of every set, summed per (kind, rule)."""
        return summed(c for s in self.sets.values() for c in s.cells)

    def held(self) -> tuple[KeepRule, ...]:
        """The cells the judge does not win: kept for the rules, in a stable order."""
        return held_cells(self.cells())


def summed(cells: Iterable[TrackCell]) -> list[TrackCell]:
    totals: dict[tuple[str, str], list[int]] = {}
    for c in cells:
        t = totals.setdefault((c.kind, c.rule), [0, 0, 0])
        t[0], t[1], t[2] = t[0] + c.n, t[1] + c.rules_agree, t[2] + c.judge_agree
    return [
        TrackCell(kind=k, rule=r, n=n, rules_agree=a, judge_agree=b) for (k, r), (n, a, b) in sorted(totals.items())
    ]


def held_cells(cells: Iterable[TrackCell]) -> tuple[KeepRule, ...]:
    """KeepRule(kind, rule) for every cell with labels the judge does not win."""
    return tuple(
        KeepRule(kind=c.kind, rule=c.rule) for c in summed(cells) if c.n and not c.overturns and c.rule != "none"
    )


def record_path(judges: Path, judge_id: str) -> Path:
    """Where the record of the judge `judge_id` configured in the file `judges` is kept."""
    return judges.parent / RECORDS_DIR / f"{judge_id}.json"


def read_record(path: Path) -> TrackRecord | None:
    """The record in `path`, or None when there is none; a file that is not one is refused, naming it."""
    if not path.is_file():
        return None
    try:
        return TrackRecord.model_validate_json(path.read_text())
    except ValueError as exc:
        raise ValueError(f"{path}: not a judge's track record: {exc}") from None


def recorded(
    path: Path, judge: str, judge_id: str, source: str, labels: int, measured: str, cells: Iterable[TrackCell]
) -> TrackRecord:
    """The record in `path` with the cells measured on `source` written (replacing that set's), saved."""
    record = read_record(path) or TrackRecord(judge=judge, judge_id=judge_id)
    record.sets[source] = LabelledRecord(labels=labels, measured=measured, cells=list(cells))
    record.sets = dict(sorted(record.sets.items()))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record.model_dump(), indent=1, sort_keys=True) + "\n")
    return record
