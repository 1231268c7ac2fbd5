"""How the warehouse reads and writes partitions: writes go to DuckDB as Arrow (`to_arrow`) with the types
the pandas scan gave them; what a table's existence and a block's kept inputs remember, and when not."""

from __future__ import annotations

import duckdb
import pandas as pd
import pyarrow.parquet as pq
import pytest

from ragpipe.warehouse.tables import append_rows, inputs_kept, read_partition, replace_partition, store, to_arrow

# every kind of column the warehouse's tables hold: text with gaps, numbers with gaps, flags, times with and
# without a zone, lists of text (empty too), a column of nothing but NULLs, nullable integers
KINDS = {
    "text": ["a", None],
    "number": [1.5, None],
    "count": [1, 2],
    "count_with_gap": [1, None],
    "flag": [True, False],
    "flag_with_gap": [True, None],
    "at": [pd.Timestamp("2026-12-05T10:00:00Z"), pd.Timestamp("2026-12-06T10:00:00Z")],
    "naive_at": [pd.Timestamp("2026-12-05"), pd.NaT],
    "needles": [["$44,322", "2022"], []],
    "nothing": pd.Series([None, None], dtype=object),
    "nullable": pd.array([1, None], dtype="Int64"),
}


def _types(conn: duckdb.DuckDBPyConnection, relation) -> list[tuple[str, str]]:
    conn.register("_probe", relation)
    try:
        return [tuple(row[:2]) for row in conn.execute("DESCRIBE _probe").fetchall()]
    finally:
        conn.unregister("_probe")


@pytest.mark.parametrize("column", sorted(KINDS))
def test_duckdb_reads_the_arrow_table_with_the_pandas_scans_types(column):
    frame = pd.DataFrame({column: KINDS[column]})
    conn = duckdb.connect()
    assert _types(conn, to_arrow(frame)) == _types(conn, frame)


def test_a_stored_partition_reads_back_and_its_parquet_copy_is_the_same_rows(tmp_path):
    frame = pd.DataFrame({"corpus": ["demo", "demo"], **{k: v for k, v in KINDS.items() if k != "nothing"}})
    conn = duckdb.connect(str(tmp_path / "w.duckdb"))
    path = store(conn, tmp_path, "probe", frame, {"corpus": "demo"})
    back = read_partition(conn, "probe", {"corpus": "demo"})
    assert back["text"].iloc[0] == "a" and back["text"].isna().iloc[1] and back["needles"].map(list).tolist() == [["$44,322", "2022"], []]
    assert back["count_with_gap"].isna().tolist() == [False, True] and back["flag"].tolist() == [True, False]
    copy = pq.read_table(path).to_pandas()
    assert copy["text"].iloc[0] == "a" and copy["text"].isna().iloc[1] and len(copy) == 2


def test_a_column_arrow_cannot_type_is_stored_as_duckdb_scans_it(tmp_path):
    conn = duckdb.connect(str(tmp_path / "w.duckdb"))
    mixed = pd.DataFrame({"value": [1, "one"]})  # Arrow refuses a column of ints and text
    assert append_rows(conn, "mixed", mixed) == 2
    assert conn.execute("SELECT value FROM mixed ORDER BY value").fetchall() == [("1",), ("one",)]


def test_a_table_created_in_a_transaction_rolled_back_is_not_remembered_as_existing(tmp_path):
    """`table_exists` remembers what it saw, but what it saw inside a transaction only once that commits."""
    from ragpipe.warehouse.tables import table_exists, transaction

    conn = duckdb.connect(str(tmp_path / "w.duckdb"))
    with pytest.raises(RuntimeError), transaction(conn):
        conn.execute("CREATE TABLE undone (x INTEGER)")
        assert table_exists(conn, "undone")
        raise RuntimeError("the stage failed")
    assert not table_exists(conn, "undone")
    with transaction(conn):
        conn.execute("CREATE TABLE kept (x INTEGER)")
        assert table_exists(conn, "kept")
    other = duckdb.connect(str(tmp_path / "w.duckdb"))  # the same database: it sees the committed table
    assert table_exists(conn, "kept") and table_exists(other, "kept")


def test_a_kept_input_is_read_once_handed_out_as_copies_and_never_written(tmp_path):
    conn = duckdb.connect(str(tmp_path / "w.duckdb"))
    replace_partition(conn, "answers", pd.DataFrame({"corpus": ["demo"], "answer": ["$42.99"]}), {"corpus": "demo"})
    with inputs_kept(conn, ["answers"]):
        first = read_partition(conn, "answers", {"corpus": "demo"})
        first.loc[0, "answer"] = "changed by a reader"
        conn.execute("UPDATE answers SET answer = '$26.99'")  # behind the module's back: not seen in the block
        assert read_partition(conn, "answers", {"corpus": "demo"})["answer"].tolist() == ["$42.99"]
        with pytest.raises(RuntimeError, match="kept as an input"):
            replace_partition(conn, "answers", pd.DataFrame({"corpus": ["demo"], "answer": ["x"]}), {"corpus": "demo"})
    assert read_partition(conn, "answers", {"corpus": "demo"})["answer"].tolist() == ["$26.99"]  # the block ended
