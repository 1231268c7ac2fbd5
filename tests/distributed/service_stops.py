"""Redis or PostgreSQL stopped mid-run: the run fails with one line naming the service, and once it is
back, a rerun finishes without asking again what was answered. The tests, one file per service so the
suite's workers run them side by side, are test_redis_down.py and test_postgres_down.py."""

from __future__ import annotations

import subprocess
import time
from collections import Counter

import duckdb

from assets.deploy.services import Redis
from tests.chat_server import ChatServer
from tests.commands import RAGPIPE, openai_run
from tests.conftest import ROOT

KEY = {"RAGPIPE_TEST_KEY": "sk-cluster"}


def _run(cluster, warehouse, server) -> subprocess.Popen:
    args = openai_run(server.base_url, "--executor", "celery", "--shards", "2", "--concurrency", "1")
    env = cluster.env("home-launcher", RAGPIPE_WAREHOUSE=str(warehouse), **KEY)
    return subprocess.Popen(
        [RAGPIPE, *args], env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def a_service_stopped_mid_run_is_named_in_one_line_and_a_rerun_finishes(cluster, service: str) -> None:
    """`service` ("Redis" or "PostgreSQL") stopped mid-run, then started again, with a rerun after."""
    warehouse = cluster.storage_root / f"warehouse-{service}"
    cluster.start_worker("w1", "dagster", **KEY)
    cluster.start_worker("wh", "warehouse", RAGPIPE_WAREHOUSE=str(warehouse), **KEY)
    try:
        with ChatServer(default="slow:0.2") as server:
            first = _run(cluster, warehouse, server)
            deadline = time.monotonic() + 300
            while len(server.served) < 4 and time.monotonic() < deadline and first.poll() is None:
                time.sleep(0.05)
            assert len(server.served) >= 4, "answering never started"
            if service == "Redis":
                cluster.redis.stop()
            else:
                cluster.postgres.stop(remove=False)
            out, err = first.communicate(timeout=600)
            assert first.returncode == 1, out + err
            said = [line for line in err.splitlines() if line.strip()]
            assert len(said) == 1 and said[0].startswith(f"{service} at 127.0.0.1:"), err[-3000:]
            assert "stopped answering" in said[0] and "ragpipe-local" not in said[0]  # never the password
            if service == "Redis":
                cluster.redis = Redis(cluster.redis.folder, port=cluster.redis.port).start()
            else:
                cluster.postgres.start()
            second = _run(cluster, warehouse, server)
            out, err = second.communicate(timeout=600)
            assert second.returncode == 0, out[-2000:] + err[-3000:]
            asked = Counter(server.served)
    finally:
        cluster.stop_workers()
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        answers = conn.execute("SELECT question_id, error FROM answers WHERE answer_set = 'openai:test-model'").df()
    assert len(answers) == 31 and answers["question_id"].is_unique and answers["error"].isna().all()
    assert len(asked) == 31
    if service == "Redis":  # the workers stopped with the broker: at most what was in flight on the 2 shards
        assert sum(asked.values()) - 31 <= 2, asked.most_common(3)
    # with PostgreSQL gone the launcher gives up (after dagster-postgres's retries) while a worker's step
    # goes on answering; what it answers after the rerun has planned is asked twice and kept once
