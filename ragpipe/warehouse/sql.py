"""Read-only SQL over the warehouse.

The connection is opened read-only with external access off, so a query can
read the warehouse's tables and nothing else: a statement that writes,
attaches another file, installs or loads an extension, or reads a file is
refused with a message that says so, and changes nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import duckdb

from ragpipe.warehouse.lock import open_read_only


DEFAULT_TIMEOUT = 60.0  # seconds: a reader holds DuckDB's file lock, and writers wait on it
BATCH = 10_000  # rows fetched at a time: a streamed answer holds one batch, whatever its size


class SqlRefused(ValueError):
    """The statement was not run: it would write, or reach outside the warehouse."""


class NoWarehouse(FileNotFoundError):
    """A read-only command found no warehouse file: nothing has been run here yet."""


class QueryTimeout(RuntimeError):
    """The query ran past its time limit and was stopped; the warehouse is free again."""


def readonly_connection(path: Path) -> duckdb.DuckDBPyConnection:
    """Read-only, then sandboxed: external access goes off once the connection has its spill folder (a
    sandboxed connection may not set one, and a query past the memory limit would fail, not spill)."""
    if not path.exists():
        raise NoWarehouse(f"no warehouse at {path}: run `ragpipe run` first")
    conn = open_read_only(path, config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    conn.execute("SET enable_external_access = false")
    return conn


@dataclass(frozen=True)
class QueryResult:
    """A query's column names and rows, as DuckDB gives them (no pandas: `ragpipe sql` answers at once)."""

    columns: list[str]
    rows: list[tuple]
    more: bool = False  # rows past `limit` followed, not fetched

    def __len__(self) -> int:
        return len(self.rows)


def run_query(
    path: Path,
    query: str,
    timeout: float = DEFAULT_TIMEOUT,
    limit: int | None = None,
    each: Callable[[list[str], list[tuple]], None] | None = None,
) -> QueryResult:
    """The query's rows: the first `limit` of them (and whether more follow), or every row handed to
    `each` a batch at a time and none kept (an answer of millions of rows streams in bounded memory).
    A query still running after `timeout` seconds is interrupted (QueryTimeout): while it reads, its
    connection holds the file, and a writer waits for it."""
    conn = readonly_connection(path)
    # the query may be anyone's text: once the connection is set up, no statement may change its settings
    # (`CALL enable_logging(storage='file', ...)` aborted DuckDB; `SET enable_external_access` would undo the sandbox)
    conn.execute("SET lock_configuration = true")
    timer = threading.Timer(timeout, conn.interrupt)
    timer.daemon = True
    timer.start()
    try:
        try:
            cursor = conn.execute(query)
            if cursor is None:  # a text with no statement in it (empty, blank, only a comment)
                raise SqlRefused("nothing to run: the query holds no SQL statement")
            columns = [d[0] for d in cursor.description or []]
            if not columns:
                return QueryResult(columns, [])
            if each is None:
                rows = cursor.fetchall() if limit is None else cursor.fetchmany(limit + 1)
                return QueryResult(columns, rows[:limit], more=limit is not None and len(rows) > limit)
            each(columns, [])  # the header, before any row
            while batch := cursor.fetchmany(BATCH):
                each(columns, batch)
            return QueryResult(columns, [])
        except duckdb.InterruptException as exc:
            raise QueryTimeout(f"query stopped after {timeout:g} s (--timeout): the warehouse is free again") from exc
        except duckdb.Error as exc:
            msg = str(exc)
            low = msg.lower()
            if "read-only" in low or "read only" in low:
                raise SqlRefused(f"refused: the warehouse is opened read-only, so this statement cannot run ({msg.splitlines()[0]})") from exc
            if "external access" in low or "permission" in low:
                raise SqlRefused(f"refused: queries may not reach outside the warehouse ({msg.splitlines()[0]})") from exc
            raise
    finally:
        timer.cancel()
        conn.close()
