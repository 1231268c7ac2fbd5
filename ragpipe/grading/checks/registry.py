"""The checks, found rather than listed: every module of this package that declares `CHECK`, and every
check another installed package registers under the entry-point group `ragpipe.checks`.

They run in the order each declares (`Check.order`), and the first finding with a verdict decides, so
the order is the grader's precedence: a decline decides before anything is read as an answer; a wrong
money figure, a forbidden claim or the opposite yes/no make an answer wrong whatever needles it
carries; the needle count decides partial or wrong; an answer that passes all of them but cites no
golden document is partial. A check applies to the question kinds it declares (`Check.kinds`): a
negative question is graded by the decline check alone.

A check of your own lives in your package (docs/grader.md, "A check of your own"): its `pyproject.toml`
names it under `[project.entry-points."ragpipe.checks"]`, and once installed it is found, ordered, given
its rules section and ablated as the built-in ones are; its package's source enters the grader version
(`plugin_sources`), so adding, removing or editing it is a new version with its own delta.
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
import sys
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import cast

import ragpipe.grading.checks as _package
from ragpipe.grading.checks.view import Check, PluginRefused

ENTRY_POINTS = "ragpipe.checks"


def plugged_in() -> tuple[Check, ...]:
    """The checks installed packages register under `ragpipe.checks` (`name = "package.module:CHECK"`, or
    the module, whose `CHECK` is taken), by entry-point name."""
    found = []
    for point in sorted(entry_points(group=ENTRY_POINTS), key=lambda p: (p.name, p.value)):
        try:
            loaded = point.load()
        except Exception as exc:  # a broken plug-in stops grading here, saying which, not later
            raise PluginRefused(f"check plug-in {point.name!r} ({point.value}): cannot load: {exc}") from exc
        check = getattr(loaded, "CHECK", loaded)
        if not isinstance(check, Check):
            raise PluginRefused(f"check plug-in {point.name!r} ({point.value}): not a ragpipe Check")
        found.append(check)
    return tuple(found)


def discover(package=_package, plugins: bool = True) -> tuple[Check, ...]:
    """The `CHECK` of every module in `package`, and the registered plug-ins', in their declared order (ids
    and orders unique)."""
    found = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        check = getattr(importlib.import_module(f"{package.__name__}.{info.name}"), "CHECK", None)
        if isinstance(check, Check):
            found.append(check)
    if plugins:
        found += plugged_in()
    for attribute in ("id", "order"):
        values = [getattr(c, attribute) for c in found]
        twice = sorted({v for v in values if values.count(v) > 1})
        if twice:
            raise TypeError(f"checks share a {attribute}: {twice}")
    return tuple(sorted(found, key=lambda c: c.order))


CHECKS: tuple[Check, ...] = discover()
CHECK_IDS = tuple(c.id for c in CHECKS)


def plugin_sources(checks: tuple[Check, ...] = CHECKS) -> dict[str, str]:
    """{"plugin:<file>": sha256 of its bytes} for every source file of the packages the plug-in checks come
    from (a module's whole top-level package): what of them can change a verdict, for the grader version."""
    sources = {}
    for check in checks:
        top = check.run.__module__.split(".")[0]
        if top == "ragpipe":
            continue
        module = sys.modules[top]
        file = Path(cast(str, module.__file__))
        where = file.parent if hasattr(module, "__path__") else file
        files = sorted(where.rglob("*.py")) if where.is_dir() else [where]
        for path in files:
            name = f"plugin:{top}/{path.relative_to(where).as_posix()}" if where.is_dir() else f"plugin:{path.name}"
            sources[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return sources


@cache
def checks_for(kind: str) -> tuple[Check, ...]:
    """The checks that apply to a question of `kind`, in order."""
    return tuple(c for c in CHECKS if kind in c.kinds)
