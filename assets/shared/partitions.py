"""Partitions: corpus-level stages per corpus, the rest per (corpus, configuration).

Ingest, questions and needles do not depend on the knobs, so they are
materialized once per corpus; chunks onward are per pair. Dagster maps the
pair partitions to their corpus partition through the shared `corpus`
dimension.
"""

from dagster import MultiPartitionKey, MultiPartitionsDefinition, StaticPartitionsDefinition

from ragpipe.corpus.manifest import list_corpora, load_configs
from ragpipe.warehouse.settings import corpora_dir

CORPORA = sorted(list_corpora(corpora_dir()))
CONFIGS = sorted(load_configs(corpora_dir()))

corpus_partitions = StaticPartitionsDefinition(CORPORA)
pair_partitions = MultiPartitionsDefinition(
    {"corpus": corpus_partitions, "config": StaticPartitionsDefinition(CONFIGS)}
)


def pair_key(corpus: str, config: str) -> MultiPartitionKey:
    return MultiPartitionKey({"corpus": corpus, "config": config})


def pair_of(partition_key) -> tuple[str, str]:
    dims = partition_key.keys_by_dimension
    return dims["corpus"], dims["config"]
