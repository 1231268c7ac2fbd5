"""The team deployment keeps its secrets in the environment and says what it cannot do: the workers'
Celery settings file holds no password (it once held Redis's, at mode 0644); a PostgreSQL URL whose
password has a raw `@` is refused in one line, redacted; a worker given two queues serves both (Celery
kept only the last -Q); and a run whose steps no worker would pick up says which queue has none."""

from __future__ import annotations

import os
import stat

import pytest

from assets.deploy.worker import command, settings_module
from tests.commands import ragpipe

SECRET = "s3cret-Redis-pw"


def test_the_workers_settings_file_holds_no_password_and_is_private(tmp_path):
    folder = settings_module(tmp_path / "celery", {"RAGPIPE_REDIS_URL": f"redis://:{SECRET}@127.0.0.1:6379/0"})
    path = folder / "dagster_celery_config.py"
    assert SECRET not in path.read_text() and "os.environ['RAGPIPE_REDIS_URL']" in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_two_queues_are_one_q_celery_reads_whole():
    args = command("wh", ["warehouse", "dagster"], 1)
    assert args.count("-Q") == 1 and args[-2:] == ["-Q", "warehouse,dagster"]


def test_a_postgres_url_with_a_raw_at_is_refused_in_a_line_and_redacted(tmp_path):
    (tmp_path / "dh").mkdir()
    url = "postgresql+psycopg2://ragpipe:pa@ss-tail@127.0.0.1:5999/ragpipe"
    env = {**os.environ, "RAGPIPE_WAREHOUSE": str(tmp_path / "wh"), "DAGSTER_HOME": str(tmp_path / "dh"),
           "RAGPIPE_POSTGRES_URL": url}  # fmt: skip
    out = ragpipe(env, "run", "--corpus", "demo", "--config", "default", timeout=600)
    said = (out.stdout + out.stderr).strip()
    assert out.returncode == 1 and "Traceback" not in said and len(said.splitlines()) <= 2, said[-3000:]
    assert "percent-encode it" in said and "ragpipe:***@" in said and "pa@ss" not in said and "ss-tail" not in said


@pytest.mark.end_to_end
def test_a_worker_given_two_queues_serves_both(cluster, tmp_path):
    from assets.deploy.celery import unserved_queues

    cluster.start_worker("both", ["warehouse", "dagster"], RAGPIPE_WAREHOUSE=str(tmp_path / "wh"))
    try:
        assert unserved_queues(["warehouse", "dagster"], cluster.shared()) == []
    finally:
        cluster.stop_workers()


@pytest.mark.end_to_end
def test_a_run_no_worker_would_pick_up_says_which_queue(cluster, tmp_path):
    cluster.start_worker("shards-only", "dagster")
    try:
        env = cluster.env("home-launcher", RAGPIPE_WAREHOUSE=str(tmp_path / "wh"), RAGPIPE_WORKER_WAIT="3")
        out = ragpipe(env, "run", "--corpus", "demo", "--config", "default", "--executor", "celery", timeout=900)
    finally:
        cluster.stop_workers()
    said = (out.stdout + out.stderr).strip()
    assert out.returncode != 0 and "Traceback" not in said, said[-3000:]
    assert "no Celery worker serves the queue(s) warehouse" in said and "--queue warehouse" in said
