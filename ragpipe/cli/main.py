"""The `ragpipe` command's entry: every command registered, the orchestrator in place, errors said in one line."""

from __future__ import annotations

import sys
from collections.abc import Callable

import duckdb

# isort: off
# each module registers its commands on the app; the help lists its panels in this order
from ragpipe.cli import run  # noqa: F401
from ragpipe.cli import answers, compare, review  # noqa: F401
from ragpipe.cli import grading, judge, labels, ledger, sql, trust  # noqa: F401

# isort: on
from ragpipe.cli.app import app, console, say
from ragpipe.cli.long_lived import set_aside_imports
from ragpipe.cli.orchestrator import Orchestrator, ServiceUnavailable, set_command, use
from ragpipe.warehouse.lock import (
    SettingRefused,
    WarehouseBusy,
    WarehouseUnreadable,
    WarehouseUnwritable,
    unreadable_message,
)
from ragpipe.warehouse.settings import database_path

# what a command refuses with, said in one line (exit 1; a busy warehouse exits 3); with those of the
# manifests, names and rules, imported when an error is looked at (a command that works never loads them)
REFUSALS = (SettingRefused, WarehouseBusy, WarehouseUnreadable, WarehouseUnwritable, ServiceUnavailable)


def refusal_in(exc: BaseException) -> Exception | None:
    """The refusal (bad corpus, manifest or rules) behind an error, however deep Dagster wrapped it."""
    from ragpipe.corpus.adapters import DataMissing
    from ragpipe.corpus.adapters.contained import DataOutside
    from ragpipe.corpus.manifest import ManifestError
    from ragpipe.corpus.preflight import CorpusRefused
    from ragpipe.grading.checks.view import PluginRefused

    try:
        from ragpipe.grading.rules import RulesError
    except PluginRefused as again:  # the rules are assembled from the checks: a refused plug-in stops them too
        return again
    from ragpipe.inputs.names import NameRefused
    from ragpipe.judge import JudgeError
    from ragpipe.warehouse.sql import NoWarehouse

    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        refused = (
            CorpusRefused,
            DataMissing,
            DataOutside,
            JudgeError,
            ManifestError,
            NameRefused,
            NoWarehouse,
            RulesError,
            PluginRefused,
        )
        if isinstance(e, REFUSALS + refused):
            return e
        if isinstance(e, duckdb.IOException) and "read enough bytes" in str(e):  # a truncated warehouse file
            return WarehouseUnreadable(unreadable_message(database_path(), e))
        todo += [e.__cause__, e.__context__, getattr(e, "user_exception", None)]
    return None


def main(orchestrator: Orchestrator | Callable[[], Orchestrator]) -> None:
    """The `ragpipe` command, materializing through `orchestrator` (or what a function makes of it, on first
    use): a busy warehouse is a message and exit code 3, a refused input a message naming file, line and
    field and exit code 1, never a traceback."""
    use(orchestrator)
    set_command(sys.argv[1:])
    set_aside_imports()  # every command's modules are loaded by now (ragpipe/cli/long_lived.py)
    try:
        app()
    except WarehouseBusy as exc:
        console.print(f"{exc}", style="red")
        sys.exit(3)
    except Exception as exc:
        refused = refusal_in(exc)
        if refused is None:
            raise
        say(str(refused), err=True)  # plain text: a message may hold [brackets]
        sys.exit(3 if isinstance(refused, WarehouseBusy) else 1)
