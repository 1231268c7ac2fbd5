"""A regrade that fails in a late stage says, a line a pair, what it committed and what it did not, with
no stack trace; and it committed what it says (the grades are the new grader's)."""

from __future__ import annotations

import shutil

import duckdb
import pytest

from ragpipe.grading.rules import DEFAULT_RULES, load_rules
from tests.commands import env_for, ragpipe


@pytest.mark.end_to_end
def test_a_regrade_stopped_at_the_review_says_what_each_pair_committed(tmp_path, demo_warehouse_once):
    warehouse = tmp_path / "wh"
    shutil.copytree(demo_warehouse_once, warehouse)
    shutil.rmtree(warehouse / "reports", ignore_errors=True)
    (warehouse / "reports").write_text("a file where the review reports' folder goes\n")  # the last stage fails
    candidate = tmp_path / "candidate.yaml"
    candidate.write_text(DEFAULT_RULES.read_text().replace("    - could not find\n", ""))
    out = ragpipe(env_for(tmp_path), "regrade", "--rules", str(candidate))
    said = out.stdout + out.stderr
    assert out.returncode == 1, said
    assert "Traceback" not in said and "Stack Trace" not in said and "dagster - ERROR" not in said, said
    assert (
        "demo/default: committed rule verdicts, judgments, grades and their history, scorecards, agreement, "
        "the delta; not done: the review report (NotADirectoryError" in said
    ), said
    assert "regraded 1 pair(s) with grader" in said and "1 stopped before the end (said above): demo/default" in said
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        versions = {v for (v,) in conn.execute("SELECT DISTINCT grader_version FROM grades").fetchall()}
    assert versions == {load_rules(candidate).version}  # committed, as said
