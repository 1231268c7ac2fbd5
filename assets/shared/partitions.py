"""Partitions: corpus-level stages per corpus, the rest per (corpus, configuration).

Ingest, questions and needles do not depend on the knobs, so they are
materialized once per corpus; chunks onward are per pair. Dagster maps the
pair partitions to their corpus partition through the shared `corpus`
dimension.

Only the corpora whose data is here are partitions (the demo always: its PDFs are written by the project):
a corpus declared in corpora/ whose data is absent (FinanceBench without ../shared/data) would be a row of
missing partitions on every asset, which reads as something failed. Its data put in place, the next load
of the definitions (Reload definitions, or any command) makes it a partition.
"""

from dagster import MultiPartitionKey, MultiPartitionsDefinition, StaticPartitionsDefinition, map_asset_specs

from ragpipe.corpus.adapters import data_problem
from ragpipe.corpus.manifest import list_corpora, load_configs
from ragpipe.warehouse.settings import corpora_dir

DECLARED = list_corpora(corpora_dir())
CORPORA = sorted(name for name, manifest in DECLARED.items() if data_problem(manifest) is None)
ABSENT = sorted(set(DECLARED) - set(CORPORA))  # declared, their data not here: no partition (said in descriptions)
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


def _what_fills(spec) -> str:
    per_pair = isinstance(spec.partitions_def, MultiPartitionsDefinition)
    if per_pair:
        return (
            f"Partitions: one per (corpus, configuration), {len(CORPORA) * len(CONFIGS)} in all. `make run` fills "
            f"the demo's {len(CONFIGS)} ({', '.join('demo/' + c for c in CONFIGS)}), so the UI reads "
            f"{100 * len(CONFIGS) // (len(CORPORA) * len(CONFIGS))}% materialized; a pair fills when its corpus "
            "runs (`ragpipe run --corpus C`; a third-party corpus needs its data: docs/corpora.md). "
            "A missing partition is a pair never run, not a failure." + _absent_said()
        )
    return (
        f"Partitions: one per corpus, {len(CORPORA)} in all. `make run` fills demo; a corpus fills when it runs "
        "(`ragpipe run --corpus C`). A missing partition is a corpus never run, not a failure." + _absent_said()
    )


def _absent_said() -> str:
    if not ABSENT:
        return ""
    return (
        f" Declared but absent here (no partition until their data is in place, docs/corpora.md): {', '.join(ABSENT)}."
    )


def with_partitions_said(assets: list) -> list:
    """`assets` with each partitioned one's description saying which partitions `make run` fills: a
    partly materialized asset in the UI is a pair or corpus never run, and the description says so."""

    def said(spec):
        if spec.partitions_def is None:
            return spec
        return spec.replace_attributes(description=f"{spec.description or ''}\n\n{_what_fills(spec)}".strip())

    return map_asset_specs(said, assets)
