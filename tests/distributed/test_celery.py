"""The demo pair on Celery workers: 4 shards on 2 workers plus the warehouse host's worker, the
instance on PostgreSQL, Redis between them (a worker killed mid-shard: test_celery_worker_killed.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from assets.deploy.cluster import celery_run
from tests.commands import RAGPIPE
from tests.conftest import ROOT
from tests.distributed.celery_runs import ragpipe_on, start_workers, step_metadata, team_instance

pytestmark = pytest.mark.end_to_end
GRADES = Path("parquet/grades/corpus=demo/config=default/data.parquet")


def test_four_shards_on_two_workers_grade_byte_for_byte_as_one_process(cluster, tmp_path, monkeypatch):
    warehouse = cluster.storage_root / "warehouse-a"
    start_workers(cluster, warehouse)
    try:
        run = ragpipe_on(cluster, warehouse, *celery_run("demo"))
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, out + err
        regrade = ragpipe_on(cluster, warehouse, "regrade", "--executor", "celery")  # the grade steps, on the workers
        out, err = regrade.communicate(timeout=600)
        assert regrade.returncode == 0 and "regraded 1 pair(s)" in out, out + err
    finally:
        cluster.stop_workers()
    reference = tmp_path / "reference"  # one process, one shard, SQLite: the default path
    plain = subprocess.run(
        [RAGPIPE, "run", "--corpus", "demo", "--config", "default"],
        env={
            **cluster.env("home-reference", RAGPIPE_WAREHOUSE=str(reference)),
            "RAGPIPE_POSTGRES_URL": "",
            "RAGPIPE_STORAGE_ROOT": "",
        },
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert plain.returncode == 0, plain.stderr
    assert (warehouse / GRADES).read_bytes() == (reference / GRADES).read_bytes()
    for table in ("documents", "pages", "failed_documents"):  # the PDFs parsed in 4 shards on the workers
        stored = Path("parquet") / table / "corpus=demo" / "data.parquet"
        assert (warehouse / stored).read_bytes() == (reference / stored).read_bytes(), table

    from dagster import DagsterRunStatus, RunsFilter

    instance = team_instance(cluster, monkeypatch, tmp_path / "home-reader")
    assert len(instance.get_run_records(RunsFilter(job_name="regrade_on_celery"))) == 1
    (ingest,) = instance.get_run_records(RunsFilter(job_name="corpus_on_celery"))
    assert ingest.dagster_run.status == DagsterRunStatus.SUCCESS
    extracted = step_metadata(instance, ingest.dagster_run.run_id, "ingest.extract_shard")
    assert len(extracted) == 4 and sum(m["pdfs"] for m in extracted.values()) == 11  # every demo PDF parsed once
    assert {m["worker"] for m in extracted.values()} <= {"w1", "w2"}  # on the shard workers, not the warehouse's
    (record,) = instance.get_run_records(RunsFilter(job_name="pair_on_celery"))
    assert record.dagster_run.status == DagsterRunStatus.SUCCESS
    assert record.dagster_run.tags["dagster/partition/corpus"] == "demo"
    shards = step_metadata(instance, record.dagster_run.run_id, "answers.answer_shard")
    assert len(shards) == 4
    assert {m["worker"] for m in shards.values()} == {"w1", "w2"}  # answer shards ran on both workers
    stores = step_metadata(instance, record.dagster_run.run_id, "rule_verdicts.store_rule_shards")
    assert stores and len({m["worker_pid"] for m in shards.values()}) == 2
