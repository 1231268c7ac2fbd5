"""The warehouse writes whole partitions atomically and tolerates evolving frames."""

import pandas as pd
import pytest

from ragpipe.warehouse.tables import connect, parquet_path, read_partition, replace_partition, store


@pytest.fixture()
def conn(tmp_path):
    c = connect(tmp_path / "w.duckdb")
    yield c
    c.close()


def test_replace_partition_leaves_other_partitions(conn, tmp_path):
    store(conn, tmp_path, "t", pd.DataFrame({"corpus": ["a", "a"], "v": [1, 2]}), {"corpus": "a"})
    store(conn, tmp_path, "t", pd.DataFrame({"corpus": ["b"], "v": [3]}), {"corpus": "b"})
    store(conn, tmp_path, "t", pd.DataFrame({"corpus": ["a"], "v": [9]}), {"corpus": "a"})
    assert read_partition(conn, "t", {}, order_by="v")["v"].tolist() == [3, 9]
    assert pd.read_parquet(parquet_path(tmp_path, "t", {"corpus": "a"}))["v"].tolist() == [9]


def test_all_null_columns_take_values_later(conn, tmp_path):
    store(conn, tmp_path, "q", pd.DataFrame({"corpus": ["demo"], "kind": [None], "tags": [[]]}), {"corpus": "demo"})
    store(conn, tmp_path, "q", pd.DataFrame({"corpus": ["fb"], "kind": ["metrics"], "tags": [["x"]]}), {"corpus": "fb"})
    got = read_partition(conn, "q", {"corpus": "fb"})
    assert got["kind"].tolist() == ["metrics"] and list(got["tags"].iloc[0]) == ["x"]


def test_new_columns_are_added(conn, tmp_path):
    store(conn, tmp_path, "t", pd.DataFrame({"corpus": ["a"], "v": [1]}), {"corpus": "a"})
    store(conn, tmp_path, "t", pd.DataFrame({"corpus": ["b"], "v": [2], "w": ["new"]}), {"corpus": "b"})
    assert read_partition(conn, "t", {}, order_by="v")["w"].tolist()[1] == "new"


def test_a_failed_write_changes_nothing(conn, tmp_path):
    store(conn, tmp_path, "t", pd.DataFrame({"corpus": ["a"], "v": [1]}), {"corpus": "a"})
    with pytest.raises(Exception, match="not a number"):
        replace_partition(conn, "t", pd.DataFrame({"corpus": ["a"], "v": ["not a number"]}), {"corpus": "a"})
    assert read_partition(conn, "t", {})["v"].tolist() == [1]


def test_rows_outside_the_partition_are_refused(conn):
    with pytest.raises(ValueError, match="rows outside partition"):
        replace_partition(conn, "t", pd.DataFrame({"corpus": ["a", "b"], "v": [1, 2]}), {"corpus": "a"})


def test_reading_a_table_that_does_not_exist_says_what_to_do(conn):
    with pytest.raises(LookupError, match="materialize its asset first"):
        read_partition(conn, "nope", {})


def test_a_legacy_null_typed_column_takes_real_values(conn, tmp_path):
    conn.execute("CREATE TABLE legacy AS SELECT 'a' AS corpus, NULL AS note")
    assert "NULL" in conn.execute("DESCRIBE legacy").fetchall()[1][1]
    store(conn, tmp_path, "legacy", pd.DataFrame({"corpus": ["b"], "note": ["text"]}), {"corpus": "b"})
    assert read_partition(conn, "legacy", {"corpus": "b"})["note"].tolist() == ["text"]


def test_numbers_after_a_partition_of_nothing_but_nulls_stay_numbers(conn, tmp_path):
    """ARAGOG has no page qrels, so its page measures are all NULL; stored first (`ragpipe run --all`
    goes alphabetically), they must not make the demo's page measures text (the scorecard's mean failed)."""
    store(conn, tmp_path, "r", pd.DataFrame({"corpus": ["aragog"], "hit": [None]}), {"corpus": "aragog"})
    store(conn, tmp_path, "r", pd.DataFrame({"corpus": ["demo", "demo"], "hit": [1.0, 0.0]}), {"corpus": "demo"})
    got = read_partition(conn, "r", {}, order_by="corpus")
    assert got["hit"].tolist()[1:] == [1.0, 0.0] and got["hit"].dropna().mean() == 0.5
    assert dict((r[0], r[1]) for r in conn.execute("DESCRIBE r").fetchall())["hit"] == "DOUBLE"
    # a warehouse where it already happened (numbers stored as text) is repaired by its next write
    conn.execute("CREATE TABLE broken AS SELECT 'aragog' AS corpus, '0.5' AS hit")
    store(conn, tmp_path, "broken", pd.DataFrame({"corpus": ["demo"], "hit": [1.0]}), {"corpus": "demo"})
    assert read_partition(conn, "broken", {}, order_by="corpus")["hit"].tolist() == [0.5, 1.0]
    # text that is not a number stays text
    store(conn, tmp_path, "s", pd.DataFrame({"corpus": ["a"], "v": ["x"]}), {"corpus": "a"})
    store(conn, tmp_path, "s", pd.DataFrame({"corpus": ["b"], "v": [1.5]}), {"corpus": "b"})
    assert dict((r[0], r[1]) for r in conn.execute("DESCRIBE s").fetchall())["v"] == "VARCHAR"
