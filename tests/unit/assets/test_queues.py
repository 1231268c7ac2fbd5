"""Which Celery queue each step goes to: DuckDB keeps one writer on one host."""

import pytest

from assets.definitions import built
from assets.deploy.queues import WAREHOUSE_QUEUE

defs = built()  # loaded as Dagster loads them (assets.definitions:defs)


@pytest.mark.parametrize("job", ["corpus_on_celery", "pair_on_celery", "regrade_on_celery"])
def test_every_step_that_opens_the_warehouse_goes_to_its_hosts_queue(job):
    """A step on another machine's worker would open a DuckDB file of its own, where nobody reads it."""
    ops = list(defs.resolve_job_def(job).graph.iterate_op_defs())
    for op in ops:
        on_warehouse = op.tags.get("dagster-celery/queue") == WAREHOUSE_QUEUE
        assert on_warehouse == ("duckdb" in op.required_resource_keys), op.name
    assert any("duckdb" not in op.required_resource_keys for op in ops)  # each job has steps any worker runs


def test_a_worker_runs_steps_in_its_own_process_so_an_ingest_shard_may_start_its_readers():
    """Celery's prefork pool processes are daemonic: they may not start the capped PDF readers."""
    from assets.deploy.worker import command

    assert command("w1", ["dagster"], 1)[-4:] == ["--pool", "solo", "-Q", "dagster"]
    assert "threads" in command("w1", ["dagster"], 2)
