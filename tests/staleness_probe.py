"""What the Dagster UI would show as stale, read through Dagster's own staleness API.

Run as a script (`python -m tests.staleness_probe DAGSTER_HOME`), it loads the
definitions afresh, as `dagster dev` does on reload, and prints the status of
every asset partition of the demo corpus as JSON.
"""

from __future__ import annotations

import json
import sys

from dagster import DagsterInstance, MultiPartitionKey
from dagster._core.definitions.data_version import CachingStaleStatusResolver
from dagster._core.loader import LoadingContextForTest


def statuses(instance: DagsterInstance, corpus: str, configs: list[str]) -> dict[str, str]:
    """{"asset[partition]": "FRESH" | "STALE" | "MISSING"} for every asset of `corpus` and its pairs."""
    from assets.definitions import built

    defs = built()

    graph = defs.resolve_asset_graph()
    resolver = CachingStaleStatusResolver(instance, graph, LoadingContextForTest(instance))
    out = {}
    for key in sorted(graph.materializable_asset_keys, key=lambda k: k.to_user_string()):
        dims = graph.get(key).partitions_def
        names = getattr(dims, "partition_dimension_names", None)
        partitions = [str(MultiPartitionKey({"corpus": corpus, "config": c})) for c in configs] if names else [corpus]
        for partition in partitions:
            out[f"{key.to_user_string()}[{partition}]"] = resolver.get_status(key, partition).value
    return out


if __name__ == "__main__":
    home, corpus, configs = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    print(json.dumps(statuses(DagsterInstance.from_config(home), corpus, configs)))
