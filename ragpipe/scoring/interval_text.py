"""One way to write an interval, everywhere a number has one: `[low, high]`, the level (95%) said once
in the header or the sentence around it (scorecard, leaderboard, compare, gate, review)."""

from __future__ import annotations


def interval_text(low: float | None, high: float | None, signed: bool = False, digits: int = 1) -> str:
    """`[80.2, 91.7]`, or `[-32.3, +0.0]` for a difference (`signed`); `-` when there is none."""
    if low is None or high is None:
        return "-"
    sign = "+" if signed else ""
    return f"[{low:{sign}.{digits}f}, {high:{sign}.{digits}f}]"
