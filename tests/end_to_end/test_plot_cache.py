"""The review report's plots are drawn once per input: a re-render reads an unchanged plot back, draws
only the plots whose input changed, and writes the same page as drawing everything afresh."""

from __future__ import annotations

import dataclasses

import duckdb

from ragpipe.review.data import load_review
from ragpipe.review.render import write_report


def _two_sets(demo_warehouse_once, slower: float = 0.0):
    """The demo's review with a second answer set, so the page holds per-set plots too."""
    with duckdb.connect(str(demo_warehouse_once / "ragpipe.duckdb"), read_only=True) as conn:
        data = load_review(conn, "demo", "default", seed=3, audit_size=5)
    other = [
        {**row, "answer_set": "other", "answer_id": "o-" + row["answer_id"], "latency_ms": 5000.0 + i + slower}
        for i, row in enumerate(data.rows)
    ]
    return dataclasses.replace(data, rows=[*data.rows, *other], audit_sample=[])


def _drawn(folder) -> dict[str, int]:
    """Each cached plot's inode: a plot read back keeps its file, one drawn again is a new file."""
    return {p.name: p.stat().st_ino for p in folder.glob("*.svg")}


def test_an_unchanged_plot_is_read_back_and_a_changed_one_drawn_again(demo_warehouse_once, tmp_path):
    data, cache = _two_sets(demo_warehouse_once), tmp_path / "plots"
    fresh = write_report(data, tmp_path / "fresh.html").read_text()
    cached = write_report(data, tmp_path / "cached.html", cache).read_text()
    first = _drawn(cache)
    assert cached == fresh and len(first) >= 4  # overall and per-set plots, each kept
    again = write_report(data, tmp_path / "again.html", cache).read_text()
    assert again == fresh and _drawn(cache) == first  # every plot read back, none drawn

    slower = _two_sets(demo_warehouse_once, slower=250.0)  # one set's latencies moved: only its plots change
    moved = write_report(slower, tmp_path / "moved.html", cache).read_text()
    now = _drawn(cache)
    assert moved == write_report(slower, tmp_path / "moved-fresh.html").read_text()
    redrawn = set(now) - set(first)
    assert len(redrawn) == 1 and len(now) == len(first)  # one new latency plot; the old one pruned
    assert all(now[name] == ino for name, ino in first.items() if name in now)  # the rest read back
