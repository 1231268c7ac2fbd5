"""The demo pair on Celery workers: 4 shards on 2 workers plus the warehouse host's worker, the
instance on PostgreSQL, Redis between them; and a worker killed mid-shard."""

from __future__ import annotations

import subprocess
import time
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from assets.deploy.cluster import celery_run
from tests.chat_server import ChatServer
from tests.commands import RAGPIPE, openai_run
from tests.conftest import ROOT

pytestmark = pytest.mark.end_to_end
GRADES = Path("parquet/grades/corpus=demo/config=default/data.parquet")


def _ragpipe(cluster, warehouse: Path, *args: str, **extra: str) -> subprocess.Popen:
    env = cluster.env("home-launcher", RAGPIPE_WAREHOUSE=str(warehouse), **extra)
    return subprocess.Popen(
        [RAGPIPE, *args], env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _workers(cluster, warehouse: Path, **extra: str) -> None:
    for name in ("w1", "w2"):
        cluster.start_worker(name, "dagster", **extra)
    cluster.start_worker("wh", "warehouse", RAGPIPE_WAREHOUSE=str(warehouse), **extra)


def _instance(cluster, monkeypatch, tmp_path):
    """The Dagster instance as anyone on the team opens it: PostgreSQL, from the environment."""
    from dagster import DagsterInstance

    from assets.deploy.instance import write_instance_yaml

    for key, value in cluster.shared().items():
        monkeypatch.setenv(key, value)
    tmp_path.mkdir(parents=True, exist_ok=True)
    write_instance_yaml(tmp_path)
    return DagsterInstance.from_config(str(tmp_path))


def _step_metadata(instance, run_id: str, prefix: str) -> dict[str, dict]:
    """step key -> the output metadata of each step whose key starts with `prefix`."""
    from dagster import DagsterEventType

    out = {}
    for record in instance.all_logs(run_id, of_type=DagsterEventType.STEP_OUTPUT):
        event = record.dagster_event
        if event.step_key.startswith(prefix):
            out[event.step_key] = {k: v.value for k, v in event.step_output_data.metadata.items()}
    return out


def test_four_shards_on_two_workers_grade_byte_for_byte_as_one_process(cluster, tmp_path, monkeypatch):
    warehouse = cluster.storage_root / "warehouse-a"
    _workers(cluster, warehouse)
    try:
        run = _ragpipe(cluster, warehouse, *celery_run("demo"))
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, out + err
        regrade = _ragpipe(cluster, warehouse, "regrade", "--executor", "celery")  # the grade steps, on the workers
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

    instance = _instance(cluster, monkeypatch, tmp_path / "home-reader")
    assert len(instance.get_run_records(RunsFilter(job_name="regrade_on_celery"))) == 1
    (ingest,) = instance.get_run_records(RunsFilter(job_name="corpus_on_celery"))
    assert ingest.dagster_run.status == DagsterRunStatus.SUCCESS
    extracted = _step_metadata(instance, ingest.dagster_run.run_id, "ingest.extract_shard")
    assert len(extracted) == 4 and sum(m["pdfs"] for m in extracted.values()) == 11  # every demo PDF parsed once
    assert {m["worker"] for m in extracted.values()} <= {"w1", "w2"}  # on the shard workers, not the warehouse's
    (record,) = instance.get_run_records(RunsFilter(job_name="pair_on_celery"))
    assert record.dagster_run.status == DagsterRunStatus.SUCCESS
    assert record.dagster_run.tags["dagster/partition/corpus"] == "demo"
    shards = _step_metadata(instance, record.dagster_run.run_id, "answers.answer_shard")
    assert len(shards) == 4
    assert {m["worker"] for m in shards.values()} == {"w1", "w2"}  # answer shards ran on both workers
    stores = _step_metadata(instance, record.dagster_run.run_id, "grades.store_grades")
    assert stores and len({m["worker_pid"] for m in shards.values()}) == 2


def test_a_worker_killed_mid_shard_the_run_completes_and_nothing_is_answered_twice(cluster, tmp_path):
    warehouse = cluster.storage_root / "warehouse-b"
    quick = {"RAGPIPE_CELERY_REDELIVER": "15", "RAGPIPE_TEST_KEY": "sk-cluster"}
    _workers(cluster, warehouse, **quick)
    try:
        with ChatServer(default="slow:0.25") as server:
            args = openai_run(server.base_url, "--executor", "celery", "--shards", "4", "--concurrency", "1")
            run = _ragpipe(cluster, warehouse, *args, **quick)
            log = cluster.folder / "worker-w1" / "worker.log"
            deadline = time.monotonic() + 300
            while True:  # w1 serves shard steps only: a task taken and not done is an answer shard underway
                text = log.read_text()
                busy = text.count("received") > text.count("succeeded") and len(server.served) >= 6
                if busy or time.monotonic() > deadline or run.poll() is not None:
                    break
                time.sleep(0.05)
            assert busy, "w1 never held an answer shard"
            cluster.kill_worker("w1")
            cluster.start_worker("w3", "dagster", **quick)  # a machine that comes up afterwards
            out, err = run.communicate(timeout=600)
            asked = Counter(server.served)
    finally:
        cluster.stop_workers()
    assert run.returncode == 0, out[-2000:] + err[-3000:]
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        answers = conn.execute("SELECT question_id, error FROM answers WHERE answer_set = 'openai:test-model'").df()
        grades = conn.execute("SELECT question_id FROM grades WHERE answer_set = 'openai:test-model'").df()
    assert len(answers) == 31 and answers["question_id"].is_unique and answers["error"].isna().all()
    assert len(grades) == 31 and grades["question_id"].is_unique
    # the redelivered shard asked only what its log did not hold: at most the one question in flight
    assert len(asked) == 31 and sum(asked.values()) - 31 <= 1, asked.most_common(3)
