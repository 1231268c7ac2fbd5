"""Read-only SQL over the warehouse.

The connection is opened read-only with external access off, so a query can
read the warehouse's tables and nothing else: a statement that writes,
attaches another file, installs or loads an extension, or reads a file is
refused with a message that says so, and changes nothing.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd

from ragpipe.warehouse_lock import open_read_only


class SqlRefused(ValueError):
    """The statement was not run: it would write, or reach outside the warehouse."""


def readonly_connection(path: Path) -> duckdb.DuckDBPyConnection:
    if not path.exists():
        raise FileNotFoundError(f"no warehouse at {path}: run `ragpipe run` first")
    return open_read_only(
        path, config={"enable_external_access": False, "autoinstall_known_extensions": False, "autoload_known_extensions": False},
    )


def run_query(path: Path, query: str) -> pd.DataFrame:
    conn = readonly_connection(path)
    try:
        try:
            return conn.execute(query).df()
        except duckdb.Error as exc:
            msg = str(exc)
            low = msg.lower()
            if "read-only" in low or "read only" in low:
                raise SqlRefused(f"refused: the warehouse is opened read-only, so this statement cannot run ({msg.splitlines()[0]})") from exc
            if "external access" in low or "permission" in low:
                raise SqlRefused(f"refused: queries may not reach outside the warehouse ({msg.splitlines()[0]})") from exc
            raise
    finally:
        conn.close()
