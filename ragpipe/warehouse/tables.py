"""The warehouse: DuckDB tables (queryable history) plus a Parquet copy per partition.

Every stage writes whole partitions (all rows of one corpus, or of one
(corpus, configuration) pair) inside a transaction, so a crash leaves either
the old rows or the new ones, never half of each. Tables are created from the
first frame written and grow new columns when a later frame has them.
"""

from __future__ import annotations

import re
import weakref
from contextlib import contextmanager
from pathlib import Path
from typing import Collection, Iterator, Mapping

import duckdb
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

# not hashed into the grader version (grading/version.py)
DECIDES_NO_VERDICT = "storage"


def connect(path: Path, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Read-only connections wait (bounded) while a writer holds the file: see warehouse_lock."""
    if read_only:
        from ragpipe.warehouse.lock import open_read_only

        return open_read_only(path)
    from ragpipe.warehouse.memory import duckdb_settings

    path.parent.mkdir(parents=True, exist_ok=True)
    return duckdb.connect(str(path), read_only=read_only, config=duckdb_settings(path))


def table_exists(conn: duckdb.DuckDBPyConnection, table: str) -> bool:
    """Whether `table` exists, remembered for the connection once seen (no code drops a table; one seen
    inside a transaction only once that commits, since a rollback could undo its creation): every read
    and write asks, half a millisecond a time, some fifty times a pair in a regrade."""
    known = _EXISTING.setdefault(conn, set())
    if table in known:
        return True
    # duckdb_tables(), not information_schema.tables (which adds views, and the warehouse has none): half the
    # time. fetchall, not fetchone: a half-read result blocks the connection's next call
    rows = conn.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = ?", [table]
    ).fetchall()
    found = bool(rows and rows[0][0])
    if found:  # seen inside a transaction: remembered once it commits (a rollback could undo a creation)
        (_SEEN_IN_TRANSACTION.setdefault(id(conn), set()) if id(conn) in _OPEN else known).add(table)
    return found


_EXISTING: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # connection -> tables seen to exist
_SEEN_IN_TRANSACTION: dict[int, set[str]] = {}  # connection id -> tables seen to exist in its open transaction


def _concrete(dtype: str) -> str:
    """A column pandas hands over with nothing but NULLs (or empty lists) has type
    NULL in DuckDB; store it as text so later partitions with values still fit."""
    return re.sub(r"\bNULL\b", "VARCHAR", dtype)


def _where(keys: Mapping[str, object]) -> tuple[str, list[object]]:
    if not keys:
        return "TRUE", []
    return " AND ".join(f'"{k}" = ?' for k in keys), list(keys.values())


def _ensure_schema(conn: duckdb.DuckDBPyConnection, table: str) -> None:
    """Create `table` from the registered `_incoming` frame, or add the columns it lacks."""
    if table in _KEPT.get(id(conn), ((),))[0]:
        raise RuntimeError(f"table {table} is kept as an input of this block (inputs_kept): a write would leave its reads stale")
    incoming = [(name, _concrete(dtype)) for name, dtype, *_ in conn.execute("DESCRIBE _incoming").fetchall()]
    if not table_exists(conn, table):
        columns = ", ".join(f'"{name}" {dtype}' for name, dtype in incoming)
        conn.execute(f'CREATE TABLE "{table}" ({columns})')
    existing = {r[0]: r[1] for r in conn.execute(f'DESCRIBE "{table}"').fetchall()}
    for name, dtype in incoming:
        if name not in existing:
            conn.execute(f'ALTER TABLE "{table}" ADD COLUMN "{name}" {dtype}')
        elif dtype != existing[name] and _retypable(conn, table, name, existing[name], dtype):
            # a column created from nothing but NULLs (type NULL, or the VARCHAR `_concrete` made of it)
            # takes the type of the first real values: ARAGOG's page measures (no page qrels), stored
            # first, must not make the demo's text. A warehouse where that already happened (numbers
            # stored as text) is repaired the same way on its next write.
            conn.execute(f'ALTER TABLE "{table}" ALTER COLUMN "{name}" TYPE {dtype}')


def _retypable(conn: duckdb.DuckDBPyConnection, table: str, name: str, dtype: str, incoming: str) -> bool:
    if re.search(r"\bNULL\b", dtype):
        return True
    if dtype != "VARCHAR" or incoming == "VARCHAR" or not re.fullmatch(r"[A-Z]+", incoming):
        return False
    values, castable = conn.execute(f'SELECT count("{name}"), count(TRY_CAST("{name}" AS {incoming})) FROM "{table}"').fetchall()[0]
    return values == castable


def _rollback(conn: duckdb.DuckDBPyConnection) -> None:
    """Undo the open transaction; if the failure already ended it (a COMMIT that could not write:
    "No space left on device"), the original error is the one worth raising, not the rollback's."""
    try:
        conn.execute("ROLLBACK")
    except duckdb.Error:
        pass


_OPEN: set[int] = set()  # connections inside `transaction` now (by id: DuckDB connections take no attributes)


@contextmanager
def transaction(conn: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """All of the block's writes, or none of them. Nested, it joins the enclosing transaction, so writes
    that must land together (a pair's grades and their history) compose from functions that each
    write atomically alone."""
    if id(conn) in _OPEN:
        yield conn
        return
    conn.execute("BEGIN TRANSACTION")
    _OPEN.add(id(conn))
    try:
        yield conn
        conn.execute("COMMIT")
        _EXISTING.setdefault(conn, set()).update(_SEEN_IN_TRANSACTION.get(id(conn), ()))
    except BaseException:
        _rollback(conn)
        raise
    finally:
        _OPEN.discard(id(conn))
        _SEEN_IN_TRANSACTION.pop(id(conn), None)


def to_arrow(frame: pd.DataFrame) -> pa.Table:
    """The frame as Arrow, converted once for both copies of a partition: DuckDB takes an Arrow table in about
    half the time it scans a pandas frame (whose object columns it inspects value by value), and the
    Parquet copy is written from the same table. For every kind of column the warehouse stores, the
    types DuckDB sees are the pandas scan's (tests/unit/warehouse/test_table_io.py)."""
    return pa.Table.from_pandas(frame, preserve_index=False)


@contextmanager
def _incoming(conn: duckdb.DuckDBPyConnection, frame: pd.DataFrame, arrow: pa.Table | None = None) -> Iterator[None]:
    """`frame` visible to SQL as `_incoming` for the block (what `_ensure_schema` reads)."""
    if arrow is None:
        try:
            arrow = to_arrow(frame)
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # a column of mixed values: DuckDB's own scan reads it as text
            arrow = frame
    conn.register("_incoming", arrow)
    try:
        yield
    finally:
        conn.unregister("_incoming")


def append_changed_rows(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    frame: pd.DataFrame,
    entity: str,
    compare: list[str],
    latest_key: str,
    scope: Mapping[str, str] | None = None,
) -> int:
    """Insert each row of `frame` whose entity has no row in `table` yet, or whose latest row (the least
    by the SQL expression `latest_key`) differs from it in any `compare` column; returns how many were
    added. `scope` (column -> value) holds every earlier row of the frame's entities, so only its rows are
    read. Call inside `transaction`: the caller decides what else commits with it."""
    if frame.empty:
        return 0
    with _incoming(conn, frame):
        _ensure_schema(conn, table)
        differs = " OR ".join(f'l."{c}" IS DISTINCT FROM n."{c}"' for c in compare)
        scoped = "".join(f' AND "{column}" = ?' for column in scope or {})
        packed = ", ".join(f'"{c}"' for c in compare)
        before = conn.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0]
        conn.execute(
            f'WITH latest AS (SELECT "{entity}", unnest(arg_min(struct_pack({packed}), {latest_key})) '
            f'FROM "{table}" WHERE "{entity}" IN (SELECT "{entity}" FROM _incoming){scoped} GROUP BY "{entity}") '
            f'INSERT INTO "{table}" BY NAME SELECT n.* FROM _incoming n LEFT JOIN latest l ON l."{entity}" = n."{entity}" '
            f'WHERE l."{entity}" IS NULL OR {differs}',
            list((scope or {}).values()),
        )
        return conn.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0] - before


def has_column(conn: duckdb.DuckDBPyConnection, table: str, column: str) -> bool:
    rows = conn.execute(
        "SELECT count(*) FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = ? AND column_name = ?",
        [table, column],
    ).fetchall()
    return bool(rows and rows[0][0])


def append_rows(conn: duckdb.DuckDBPyConnection, table: str, frame: pd.DataFrame) -> int:
    """Insert every row of `frame` (the caller has decided each is new); returns how many."""
    if frame.empty:
        return 0
    with _incoming(conn, frame), transaction(conn):
        _ensure_schema(conn, table)
        conn.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM _incoming')
    return len(frame)


def append_new_rows(conn: duckdb.DuckDBPyConnection, table: str, frame: pd.DataFrame, key: list[str]) -> int:
    """Insert the rows of `frame` whose `key` is not in `table` yet (history never
    overwrites, and recording twice adds nothing); returns how many were added."""
    if frame.empty:
        return 0
    with _incoming(conn, frame), transaction(conn):
        _ensure_schema(conn, table)
        on = " AND ".join(f't."{k}" IS NOT DISTINCT FROM n."{k}"' for k in key)
        before = conn.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0]
        conn.execute(f'INSERT INTO "{table}" BY NAME SELECT n.* FROM _incoming n WHERE NOT EXISTS (SELECT 1 FROM "{table}" t WHERE {on})')
        return conn.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0] - before


def replace_rows(conn: duckdb.DuckDBPyConnection, table: str, frame: pd.DataFrame, key: list[str]) -> int:
    """Insert the rows of `frame`, each replacing the row of `table` with its `key` (an imported line
    replaces the one before it); returns how many were written."""
    if frame.empty:
        return 0
    on = " AND ".join(f't."{k}" IS NOT DISTINCT FROM n."{k}"' for k in key)
    with _incoming(conn, frame), transaction(conn):
        _ensure_schema(conn, table)
        conn.execute(f'DELETE FROM "{table}" t WHERE EXISTS (SELECT 1 FROM _incoming n WHERE {on})')
        conn.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM _incoming')
    return len(frame)


def replace_partition(
    conn: duckdb.DuckDBPyConnection, table: str, frame: pd.DataFrame, keys: Mapping[str, str], arrow: pa.Table | None = None
) -> int:
    """Make `frame` the rows of `table` for `keys` (e.g. corpus=demo), atomically (`arrow`: the frame
    already converted, `to_arrow`)."""
    for k, v in keys.items():
        if k not in frame.columns:
            raise ValueError(f"table {table}: frame lacks partition column {k!r}")
        if len(frame) and not (frame[k] == v).all():
            raise ValueError(f"table {table}: rows outside partition {k}={v!r}")
    with _incoming(conn, frame, arrow), transaction(conn):
        _ensure_schema(conn, table)
        where, params = _where(keys)
        conn.execute(f'DELETE FROM "{table}" WHERE {where}', params)
        conn.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM _incoming')
    return len(frame)


def read_partition(
    conn: duckdb.DuckDBPyConnection, table: str, keys: Mapping[str, object], order_by: str | None = None
) -> pd.DataFrame:
    kept = _KEPT.get(id(conn))
    if kept is not None and table in kept[0]:
        key = (table, tuple(keys.items()), order_by)
        if key not in kept[1]:
            kept[1][key] = _read(conn, table, keys, order_by)
        return kept[1][key].copy()
    return _read(conn, table, keys, order_by)


def _read(conn: duckdb.DuckDBPyConnection, table: str, keys: Mapping[str, object], order_by: str | None) -> pd.DataFrame:
    if not table_exists(conn, table):
        raise LookupError(f"table {table} does not exist yet: materialize its asset first")
    where, params = _where(keys)
    order = f" ORDER BY {order_by}" if order_by else ""
    return conn.execute(f'SELECT * FROM "{table}" WHERE {where}{order}', params).df()


@contextmanager
def inputs_kept(conn: duckdb.DuckDBPyConnection, tables: Collection[str]) -> Iterator[None]:
    """Within the block, each partition of `tables` is read from DuckDB once and handed out as a copy after:
    a regrade's seven stages read a pair's answers seven times and its questions four, though nothing in
    a regrade writes them. The block must not write them: a write through this module raises (the
    warehouse is held by the block's process, so nobody else can)."""
    if not tables or id(conn) in _KEPT:  # nothing to keep, or kept further up: that block decides
        yield
        return
    _KEPT[id(conn)] = (frozenset(tables), {})
    try:
        yield
    finally:
        _KEPT.pop(id(conn), None)


_KEPT: dict[int, tuple[frozenset[str], dict]] = {}  # connection id -> (tables kept, their partitions read)


def parquet_path(root: Path, table: str, keys: Mapping[str, str]) -> Path:
    """Hive-style layout: parquet/<table>/corpus=<c>/config=<k>/data.parquet."""
    path = root / "parquet" / table
    for k, v in keys.items():
        path = path / f"{k}={v}"
    return path / "data.parquet"


def write_parquet(root: Path, table: str, frame: pd.DataFrame | pa.Table, keys: Mapping[str, str]) -> Path:
    """Write the partition's Parquet copy."""
    return write_parquet_file(frame, parquet_path(root, table, keys))


def write_parquet_file(frame: pd.DataFrame | pa.Table, path: Path) -> Path:
    """The one Parquet writer: atomic (a temp file, then a rename), so a reader or a crash never
    sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    pq.write_table(frame if isinstance(frame, pa.Table) else to_arrow(frame), tmp)
    tmp.replace(path)
    return path


def store(conn: duckdb.DuckDBPyConnection, root: Path, table: str, frame: pd.DataFrame, keys: Mapping[str, str]) -> Path:
    """Write one partition to DuckDB and Parquet; returns the Parquet path."""
    arrow = to_arrow(frame)
    replace_partition(conn, table, frame, keys, arrow)
    return write_parquet(root, table, arrow, keys)
