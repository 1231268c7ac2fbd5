"""Missing values as None: the one way a nullable cell leaves a frame.

A SQL NULL reaches Python in several shapes: None, NaN (pandas 3 stores a
missing string as NaN once a text column holds any value, and DuckDB, Arrow
and `DataFrame.from_records` all hand such columns over), pd.NA or NaT. NaN
is truthy, so `bool(row["error"])` on a clean answer said "failed". Every
reader of a nullable column goes through here instead of testing the value
itself.
"""

from __future__ import annotations

import math

import pandas as pd


def is_missing(value) -> bool:
    """Whether a cell holds no value (None, NaN, pd.NA, NaT); lists and arrays are values."""
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, float) and math.isnan(value)


def or_none(value):
    """The cell's value, or None when it holds none."""
    return None if is_missing(value) else value


def records(frame: pd.DataFrame) -> list[dict]:
    """The frame's rows as dicts, every missing cell None (whatever dtype pandas chose for its column)."""
    if frame.empty:
        return []
    return frame.astype(object).where(frame.notna(), None).to_dict("records")
