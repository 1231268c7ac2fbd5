"""The readings, found rather than listed: every module of this package that declares `READING`."""

from __future__ import annotations

import importlib
import pkgutil

import ragpipe.grading.readings as _package
from ragpipe.grading.readings.unit import Reading


def discover(package=_package) -> tuple[Reading, ...]:
    """The `READING` of every module in `package`, by id (ids unique)."""
    found = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        reading = getattr(importlib.import_module(f"{package.__name__}.{info.name}"), "READING", None)
        if isinstance(reading, Reading):
            found.append(reading)
    ids = [r.id for r in found]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise TypeError(f"readings share an id: {twice}")
    return tuple(sorted(found, key=lambda r: r.id))


READINGS: tuple[Reading, ...] = discover()
READING = {r.id: r for r in READINGS}
READING_IDS = frozenset(READING)
