"""The benchmarks keep running: their synthetic rows are the answer table's, and a bench whose data is not
on the machine says so in a line and exits 0 (`.ci/run` runs `make bench-quick` on fresh clones, which
have no ../shared). Their figures are never asserted here: timings live in bench/, not in tests."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ragpipe.answering.record import AnswerRecord
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))


def test_synthetic_answers_are_rows_of_the_answer_table(demo_questions):
    import pandas as pd
    from synthetic import synthetic_answers

    questions = pd.DataFrame(
        [{"corpus": "demo", "question_id": q.id, "text": q.text, "gold_answer": q.gold_answer} for q in demo_questions]
    )
    needles = pd.DataFrame(columns=["question_id", "needle", "status"])
    history = synthetic_answers(questions, needles, pd.DataFrame(columns=["question_id", "answer"]), 40)
    assert list(history.columns) == AnswerRecord.columns() and len(history) == 40
    assert history["answer_id"].is_unique


@pytest.mark.parametrize("bench", ["ingest", "retrieval", "regrade", "cluster"])
def test_a_bench_without_its_data_says_so_in_a_line_and_exits_0(bench, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "RAGPIPE_FINANCEBENCH_DIR": str(tmp_path / "absent"),
           "RAGPIPE_WAREHOUSE": str(tmp_path / "wh")}  # fmt: skip
    done = subprocess.run(
        [sys.executable, f"bench/{bench}.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (
        done.stdout.strip()
        == f"bench {bench}: skipped: FinanceBench data is absent (../shared/data/financebench or RAGPIPE_FINANCEBENCH_DIR)"
    )
