"""One shape for every stage that fans out: plan where the warehouse is, work in shards, store once.

Ingest, answers and grades are each three steps: a plan step on the warehouse
host reads DuckDB and writes each shard's input as Parquet into a work folder
of the run; shard steps (any worker, no warehouse connection) turn Parquet
into Parquet side by side; one store step, the warehouse's one writer, stores
the shards' rows in the plan's order, so the number of shards
(`RAGPIPE_SHARDS`) never changes a row. A stage gives its three functions
(`Stage`); `sharded_asset` makes the ops, the graph and the asset(s), and does
what every stage did by hand: the run's work folder, each shard's mapping key
and its `ran_on` host, the store step's tidying of this run's folder and of
folders left by runs no longer live.
"""

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dagster import (
    AssetIn,
    AssetOut,
    AssetsDefinition,
    DynamicOut,
    DynamicOutput,
    In,
    MultiPartitionKey,
    Nothing,
    OpExecutionContext,
    Out,
    Output,
    PartitionsDefinition,
    graph_multi_asset,
    op,
)
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST, ran_on
from assets.shared.liveness import run_is_live
from assets.shared.partitions import pair_of
from assets.shared.resources import Project
from ragpipe.answering.shards import clean, clean_stale, work_dir

# plan(context, duckdb, project, work folder) -> (what the store step needs besides the shards, each shard's input)
Plan = Callable[[OpExecutionContext, DuckDBResource, Project, Path], tuple[Any, Iterable[dict]]]
# work(context, project, shard) -> (what the shard made, metadata of its step)
Work = Callable[[OpExecutionContext, Project, dict], tuple[Any, Mapping[str, Any]]]
# store(context, duckdb, project, the plan's carry, every shard's result) -> one Output per asset of the stage
Store = Callable[[OpExecutionContext, DuckDBResource, Project, Any, list], list[Output]]


@dataclass(frozen=True)
class Stage:
    """A sharded stage: its name (the work folder's, and the graph's) and its three functions, whose names
    name their steps (step keys such as `rule_verdicts.grade_shard` are what run history and the docs show) and
    whose docstrings describe them."""

    name: str
    plan: Plan
    work: Work
    store: Store


def scope(context: OpExecutionContext) -> tuple[str, str]:
    """(corpus, configuration) of a step: a corpus partition has no configuration ("")."""
    key = context.partition_key
    return pair_of(key) if isinstance(key, MultiPartitionKey) else (key, "")


def _work_dir(context: OpExecutionContext, project: Project, stage: str) -> Path:
    return work_dir(project.root, stage, *scope(context), context.run_id)


def _tidy(context: OpExecutionContext, project: Project, stage: str) -> None:
    """This run's shard folder removed; folders left by runs that are no longer live too (said in the log)."""
    corpus, config = scope(context)
    clean(work_dir(project.root, stage, corpus, config, context.run_id))
    stale = clean_stale(project.root, stage, corpus, config, context.run_id, lambda r: run_is_live(context.instance, r))
    if stale:  # housekeeping, not a figure of the asset: said in the run's log
        context.log.info(f"removed {len(stale)} shard folder(s) left by runs no longer live")


def sharded_asset(
    stage: Stage,
    *,
    outs: Mapping[str, AssetOut],
    deps: tuple[str, ...],
    partitions_def: PartitionsDefinition,
    group_name: str,
    description: str,
) -> AssetsDefinition:
    """The asset(s) `outs` of `stage`, computed plan -> shards -> store after the assets `deps`."""
    plan_name, shard_name, store_name = stage.plan.__name__, stage.work.__name__, stage.store.__name__

    @op(
        name=plan_name,
        ins={"inputs": In(Nothing)},
        out={"carry": Out(), "shards": DynamicOut(dict)},
        tags=ON_WAREHOUSE_HOST,
        description=inspect.getdoc(stage.plan),
    )
    def plan_step(context: OpExecutionContext, duckdb: DuckDBResource, project: Project):
        work = _work_dir(context, project, stage.name)
        carry, shards = stage.plan(context, duckdb, project, work)
        yield Output(carry, output_name="carry")
        for k, shard in enumerate(shards):
            yield DynamicOutput(
                {**shard, "work": str(work), "shard": k}, mapping_key=f"shard_{k}", output_name="shards"
            )

    @op(name=shard_name, description=inspect.getdoc(stage.work))
    def shard_step(context: OpExecutionContext, project: Project, shard: dict):
        made, metadata = stage.work(context, project, shard)
        context.add_output_metadata({**metadata, **ran_on()})
        return made

    @op(
        name=store_name,
        out={name: Out(is_required=True) for name in outs},
        tags=ON_WAREHOUSE_HOST,
        description=inspect.getdoc(stage.store),
    )
    def store_step(context: OpExecutionContext, duckdb: DuckDBResource, project: Project, carry, shards: list):
        outputs = stage.store(context, duckdb, project, carry, shards)
        _tidy(context, project, stage.name)
        yield from outputs

    def compose(**upstream):
        carry, shards = plan_step(inputs=list(upstream.values())) if upstream else plan_step()
        stored = store_step(carry, shards.map(shard_step).collect())
        return dict(zip(outs, stored if len(outs) > 1 else (stored,)))

    # the graph's inputs are the upstream assets, by name (Dagster reads them off the signature)
    compose.__signature__ = inspect.Signature(
        [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for name in deps]
    )
    compose.__name__ = stage.name
    compose.__doc__ = description
    return graph_multi_asset(
        name=stage.name,
        outs=dict(outs),
        ins={name: AssetIn(dagster_type=Nothing) for name in deps},
        partitions_def=partitions_def,
        group_name=group_name,
    )(compose)
