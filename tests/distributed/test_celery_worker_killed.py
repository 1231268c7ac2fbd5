"""A Celery worker killed mid-shard: the run completes on the others, and nothing is answered twice."""

from __future__ import annotations

import time
from collections import Counter

import duckdb
import pytest

from tests.chat_server import ChatServer
from tests.commands import openai_run
from tests.distributed.celery_runs import ragpipe_on, start_workers

pytestmark = pytest.mark.end_to_end


def test_a_worker_killed_mid_shard_the_run_completes_and_nothing_is_answered_twice(cluster, tmp_path):
    warehouse = cluster.storage_root / "warehouse-b"
    quick = {"RAGPIPE_CELERY_REDELIVER": "15", "RAGPIPE_TEST_KEY": "sk-cluster"}
    start_workers(cluster, warehouse, **quick)
    try:
        with ChatServer(default="slow:0.25") as server:
            args = openai_run(server.base_url, "--executor", "celery", "--shards", "4", "--concurrency", "1")
            run = ragpipe_on(cluster, warehouse, *args, **quick)
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
    # every distinct question as the server read it, so a failure shows which text was not one of the 31
    seen = sorted((q if len(q) <= 120 else f"{q[:50]} ... {q[-50:]}", n) for q, n in asked.items())
    assert len(asked) == 31 and sum(asked.values()) - 31 <= 1, (asked.most_common(3), seen)
