"""The checks, found rather than listed: every module of this package that declares `CHECK`.

They run in the order each declares (`Check.order`), and the first finding with a verdict decides, so
the order is the grader's precedence: a decline decides before anything is read as an answer; a wrong
money figure, a forbidden claim or the opposite yes/no make an answer wrong whatever needles it
carries; the needle count decides partial or wrong; an answer that passes all of them but cites no
golden document is partial. A check applies to the question kinds it declares (`Check.kinds`): a
negative question is graded by the decline check alone.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import ragpipe.grading.checks as _package
from ragpipe.grading.checks.view import Check


def discover(package=_package) -> tuple[Check, ...]:
    """The `CHECK` of every module in `package`, in their declared order (ids and orders unique)."""
    found = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        check = getattr(importlib.import_module(f"{package.__name__}.{info.name}"), "CHECK", None)
        if isinstance(check, Check):
            found.append(check)
    for attribute in ("id", "order"):
        values = [getattr(c, attribute) for c in found]
        twice = sorted({v for v in values if values.count(v) > 1})
        if twice:
            raise TypeError(f"checks share a {attribute}: {twice}")
    return tuple(sorted(found, key=lambda c: c.order))


CHECKS: tuple[Check, ...] = discover()
CHECK_IDS = tuple(c.id for c in CHECKS)


@cache
def checks_for(kind: str) -> tuple[Check, ...]:
    """The checks that apply to a question of `kind`, in order."""
    return tuple(c for c in CHECKS if kind in c.kinds)
