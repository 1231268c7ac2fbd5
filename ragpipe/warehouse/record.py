"""Table rows as records: one dataclass per row kind, fields named, one way to a frame and back.

A row built as a positional list breaks silently when a column moves; a
record's fields are its columns, in order, so `columns()` is the table's
schema and `frame()` the only way rows become a table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from functools import cache
from typing import Self

import pandas as pd


@dataclass
class Record:
    @classmethod
    @cache
    def columns(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def frame(cls, records: Iterable[Self]) -> pd.DataFrame:
        """The records as a table with exactly the record's columns, in order (an empty one too)."""
        return pd.DataFrame([vars(r) for r in records], columns=cls.columns())

    @classmethod
    def from_row(cls, row: dict) -> Self:
        """A record from a table row (extra columns ignored, a missing one is a KeyError naming it)."""
        return cls(**{name: row[name] for name in cls.columns()})

    def row(self) -> dict:
        return dict(vars(self))
