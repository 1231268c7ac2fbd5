"""Same inputs, same grader version: byte-identical grades, from scratch, twice."""

from __future__ import annotations

import hashlib

import duckdb
import pytest
from dagster import DagsterInstance

from assets.runs.runner import run_corpus
from tests.conftest import warehouse_resources


def _fingerprints(folder) -> tuple[str, str]:
    with duckdb.connect(str(folder / "ragpipe.duckdb"), read_only=True) as conn:
        table = conn.execute("SELECT * FROM grades ORDER BY config, answer_set, question_id").df().to_csv(index=False)
    parquet = b"".join(p.read_bytes() for p in sorted((folder / "parquet" / "grades").rglob("*.parquet")))
    return hashlib.sha256(table.encode()).hexdigest(), hashlib.sha256(parquet).hexdigest()


@pytest.mark.end_to_end
def test_two_runs_from_scratch_give_byte_identical_grades(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    for folder in (first, second):
        results = run_corpus(
            "demo",
            ["default", "small-chunks"],
            instance=DagsterInstance.ephemeral(),
            resources=warehouse_resources(folder),
        )
        assert all(r.success for r in results)
    assert _fingerprints(first) == _fingerprints(second)
