"""Answers and grades cut into shards by question-id hash: same results, side by side in processes."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from dagster import DagsterEventType, DagsterInstance

from assets.runs.runner import run_corpus_stages, run_pair_in_processes
from ragpipe.answering.shards import shard_of, split
from tests.conftest import warehouse_resources


def test_a_question_always_lands_in_the_same_shard():
    ids = [f"q{n}" for n in range(200)]
    frame = pd.DataFrame({"question_id": ids})
    parts = split(frame, 4)
    assert sorted(q for p in parts for q in p["question_id"]) == sorted(ids)  # every question once
    assert all(len(p) > 20 for p in parts)  # the hash spreads them
    # every process agrees (Python's hash() differs per process): the answer log resumes by shard
    import subprocess
    import sys

    code = "from ragpipe.answering.shards import shard_of; print([shard_of(f'q{n}', 4) for n in range(200)])"
    for seed in ("1", "2"):
        other = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": seed},
                               capture_output=True, text=True, check=True)  # fmt: skip
        assert other.stdout.strip() == str([shard_of(q, 4) for q in ids])


def _grades(warehouse) -> tuple[str, int]:
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        frame = conn.execute("SELECT * FROM grades ORDER BY answer_set, question_id").df()
    return hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest(), len(frame)


@pytest.mark.end_to_end
def test_shards_in_parallel_processes_give_the_in_process_grades(tmp_path, monkeypatch, demo_warehouse_once):
    one = demo_warehouse_once  # the pair materialized in one process (once per session)

    many = tmp_path / "many"
    monkeypatch.setenv("RAGPIPE_WAREHOUSE", str(many))  # every step process reads it
    monkeypatch.setenv("RAGPIPE_SHARDS", "3")
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    (tmp_path / "dagster_home").mkdir()
    assert run_corpus_stages("demo", DagsterInstance.ephemeral(), warehouse_resources(many)).success
    with DagsterInstance.get() as instance:
        result = run_pair_in_processes("demo", "default", instance)
        assert result.success
        records = instance.all_logs(result.run_id)

    assert _grades(many) == _grades(one)  # sharding changes nothing, byte for byte
    for table in ("documents", "pages", "failed_documents"):  # nor does parsing the PDFs in 3 shards
        stored = Path("parquet") / table / "corpus=demo" / "data.parquet"
        assert (many / stored).read_bytes() == (one / stored).read_bytes(), table
    steps: dict[str, dict] = {}
    for record in records:
        event = record.dagster_event
        if event and event.step_key and "shard[" in event.step_key:
            steps.setdefault(event.step_key, {}).setdefault(event.event_type, record.timestamp)
            steps[event.step_key].setdefault("pids", set()).add(event.pid)
    answer_steps = sorted(k for k in steps if k.startswith("answers.answer_shard["))
    assert len(answer_steps) == 3 and len([k for k in steps if k.startswith("rule_verdicts.grade_shard[")]) == 3
    assert len(set().union(*(steps[k]["pids"] for k in answer_steps))) >= 2  # different processes
    spans = sorted(
        (steps[k][DagsterEventType.STEP_WORKER_STARTING], steps[k][DagsterEventType.STEP_SUCCESS]) for k in answer_steps
    )
    assert any(later[0] < earlier[1] for earlier, later in zip(spans, spans[1:]))  # at least two at once
    assert not list((many / "shards").rglob("*.parquet"))  # exchange files are cleaned once stored
    from multiprocessing import forkserver

    # the steps' fork server held this run's environment: stopped, so the next run forks its own
    assert forkserver._forkserver._forkserver_pid is None


def test_step_processes_start_as_configured():
    from assets.deploy.jobs import PRELOADED, step_start

    assert step_start() == {"forkserver": {"preload_modules": PRELOADED}}  # the default
    assert step_start("spawn") == {"spawn": {}}  # Dagster's own, where forkserver is missing
    with pytest.raises(ValueError, match="RAGPIPE_STEP_START='fork'"):
        step_start("fork")
