"""A big answer costs a batch, not the whole: `ragpipe sql` draws the first rows of a table and says more
follow, streams every row with --csv or --json, and DuckDB keeps to the memory ragpipe gives it, spilling
inside the warehouse past it."""

from __future__ import annotations

import csv
import io
import json
import shutil

import pytest

from tests.commands import env_for, ragpipe

MANY = "SELECT range AS n, 'row ' || range AS label FROM range(25000)"


@pytest.fixture()
def env(tmp_path, demo_warehouse_once):
    shutil.copytree(demo_warehouse_once, tmp_path / "wh")
    (tmp_path / "dh").mkdir()
    return env_for(tmp_path)


def test_the_table_draws_its_limit_and_says_more_follow(env):
    out = ragpipe(env, "sql", MANY, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "row 99 " in out.stdout and "row 100 " not in out.stdout
    assert "the first 100 rows; more follow" in out.stdout and "--csv or --json" in out.stdout
    shown = ragpipe(env, "sql", "--limit", "300", MANY, timeout=120)
    assert "row 299 " in shown.stdout and "row 300 " not in shown.stdout and "the first 300 rows" in shown.stdout
    few = ragpipe(env, "sql", "SELECT * FROM range(5)", timeout=120)
    assert "more follow" not in few.stdout


@pytest.mark.parametrize("fmt", ["--csv", "--json"])
def test_csv_and_json_stream_every_row(env, fmt):
    out = ragpipe(env, "sql", fmt, MANY, timeout=120)
    assert out.returncode == 0, out.stderr
    rows = list(csv.DictReader(io.StringIO(out.stdout))) if fmt == "--csv" else json.loads(out.stdout)
    assert len(rows) == 25000 and rows[-1]["label"] == "row 24999" and str(rows[7]["n"]) == "7"
    empty = ragpipe(env, "sql", fmt, "SELECT 1 AS one WHERE false", timeout=120)
    assert empty.stdout.strip() == ("one" if fmt == "--csv" else "[]")


def test_duckdb_keeps_to_the_memory_it_is_given_and_spills_in_the_warehouse(env):
    limited = {**env, "RAGPIPE_DUCKDB_MEMORY": "64MB"}
    said = ragpipe(limited, "sql", "--csv", "SELECT current_setting('memory_limit') AS m", timeout=120)
    assert said.stdout.splitlines()[1].strip() == "61.0 MiB", said.stdout  # 64 MB, as DuckDB says it
    # a sort of 12M rows needs several times 64 MB: it spills (into the warehouse's folder) and finishes
    query = "SELECT count(*) AS n, sum(r) AS s FROM (SELECT range AS r FROM range(12000000) ORDER BY hash(range))"
    out = ragpipe(limited, "sql", "--csv", query, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[1] == f"12000000,{sum(range(12000000))}"
    refused = ragpipe({**env, "RAGPIPE_DUCKDB_MEMORY": "lots"}, "sql", "SELECT 1", timeout=120)
    assert refused.returncode != 0 and "RAGPIPE_DUCKDB_MEMORY='lots'" in refused.stdout + refused.stderr
    assert "Traceback" not in refused.stdout + refused.stderr


@pytest.mark.parametrize("query", ["", "   ", "/* only a comment */"])
def test_a_query_with_no_statement_is_refused_in_a_line(env, query):
    out = ragpipe(env, "sql", query, timeout=120)
    assert out.returncode == 2 and "nothing to run: the query holds no SQL statement" in out.stdout, out.stdout
    assert "NoneType" not in out.stdout + out.stderr  # it once said "'NoneType' object has no attribute ..."
