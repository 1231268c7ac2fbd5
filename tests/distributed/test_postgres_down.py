"""PostgreSQL stopped mid-run: one line names it, and once it is back a rerun finishes (service_stops.py)."""

import pytest

from tests.distributed.service_stops import a_service_stopped_mid_run_is_named_in_one_line_and_a_rerun_finishes

pytestmark = pytest.mark.end_to_end


def test_postgres_stopped_mid_run_is_named_in_one_line_and_a_rerun_finishes(cluster):
    a_service_stopped_mid_run_is_named_in_one_line_and_a_rerun_finishes(cluster, "PostgreSQL")
