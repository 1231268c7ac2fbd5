"""Table rows as records: one dataclass per row kind, fields named, one way to a frame and back.

A row built as a positional list breaks silently when a column moves; a
record's fields are its columns, in order, so `columns()` is the table's
schema and `frame()` the only way rows become a table. Subclasses are
declared `slots=True`: a grade table holds tens of thousands of them, and
without a dict each they cost less to make and to collect.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from functools import cache
from operator import attrgetter
from typing import Self

import pandas as pd

# not hashed into the grader version (grading/version.py)
DECIDES_NO_VERDICT = "the shape of a row: names its fields, decides nothing"


@dataclass(slots=True)
class Record:
    @classmethod
    @cache
    def columns(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def frame(cls, records: Iterable[Self]) -> pd.DataFrame:
        """The records as a table with exactly the record's columns, in order (an empty one too)."""
        columns = cls.columns()
        values = attrgetter(*columns)  # one tuple per record: the fastest way pandas takes rows
        return pd.DataFrame.from_records([values(r) for r in records], columns=columns)

    @classmethod
    def from_row(cls, row: dict) -> Self:
        """A record from a table row (extra columns ignored, a missing one is a KeyError naming it)."""
        return cls(**{name: row[name] for name in cls.columns()})

    def row(self) -> dict:
        return {name: getattr(self, name) for name in self.columns()}
