"""The distributed tests need PostgreSQL and Redis from Debian's packages (`make test` installs them
when it can); without them they skip, saying why."""

from __future__ import annotations

import pytest

from assets.deploy.cluster import start_cluster
from assets.deploy.services import ServiceMissing


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    try:
        running = start_cluster(tmp_path_factory.mktemp("cluster"))
    except ServiceMissing as exc:
        pytest.skip(f"{exc}: the distributed tests need both servers")
    yield running
    running.stop()
