"""Plots drawn once per input: a report's plot is a pure function of what it draws (plots.py writes
the same SVG for the same input), so a re-render whose latencies or verdict counts did not change
reads the SVG it drew last time instead of drawing it again.

A regrade changes no latency and, under an unchanged ruler, no count: drawing its report's plots again
was a third of a small regrade's time (docs/performance.md). The key is the drawing function, its
input and the drawing code (plots.py's source and matplotlib's version), so a change to any draws
afresh. The folder keeps only the plots of the last render: it never grows past one report's plots.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path


@cache
def _drawing_code() -> str:
    from importlib.metadata import version

    from ragpipe.review import plots

    return hashlib.sha256(Path(plots.__file__).read_bytes()).hexdigest() + version("matplotlib")


def _key(draw: Callable, value) -> str:
    if hasattr(value, "to_csv"):  # a frame: its every cell, floats written to round-trip exactly
        value = value.to_csv()
    payload = json.dumps([draw.__module__, draw.__qualname__, _drawing_code(), value], sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


class PlotCache:
    """SVGs by (drawing function, input) in `folder`; `prune()` after a render drops the ones it did not use."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.used: set[str] = set()

    def svg(self, draw: Callable, value) -> str:
        """`draw(value)`, read from the folder when it was drawn before."""
        name = _key(draw, value) + ".svg"
        self.used.add(name)
        path = self.folder / name
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            pass
        svg = draw(value)
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{name}.{os.getpid()}.tmp")  # whole or absent: a reader never sees half a plot
        tmp.write_text(svg, encoding="utf-8")
        tmp.replace(path)
        return svg

    def prune(self) -> None:
        """Drop every plot the last render did not use."""
        for path in self.folder.glob("*.svg"):
            if path.name not in self.used:
                path.unlink(missing_ok=True)


def draw_now(draw: Callable, value) -> str:
    """No cache: draw."""
    return draw(value)
