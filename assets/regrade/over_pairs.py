"""One run regrades every pair: a stage is one step over all pairs, not one run per pair.

A Dagster run holds one partition, so regrading pair by pair paid a run's overhead (its steps, their
events, the run's start and end) for every pair: after adding a corpus of three pairs a regrade took
1.7 times as long though the answers added took a twentieth of a second to grade. Here each stage
(rule verdicts, judgments, grades, scorecards, agreement, delta, review report) is one op that runs the
asset's own body (`*_of`, shared with the asset) for each pair in turn and records what it made as a
materialization of that pair's partition, with the provenance Dagster records for an asset step (code
version, data version, each input's data version and event), so "Unsynced" reads the same whichever
way a pair was graded. The checks a pair's grades and scorecards carry are evaluated in the same run.
"""

from collections.abc import Callable

from dagster import (
    AssetCheckEvaluation,
    AssetKey,
    AssetMaterialization,
    AssetRecordsFilter,
    Config,
    DagsterEventType,
    In,
    Nothing,
    OpExecutionContext,
    Out,
    job,
    op,
)
from dagster._core.definitions.data_version import (  # the tags an asset step writes (execute_step.py)
    CODE_VERSION_TAG,
    DATA_VERSION_IS_USER_PROVIDED_TAG,
    DATA_VERSION_TAG,
    DEFAULT_DATA_VERSION,
    NULL_EVENT_POINTER,
    compute_logical_data_version,
    extract_data_version_from_entry,
    get_input_data_version_tag,
    get_input_event_pointer_tag,
)
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST
from assets.grading.behind import CHECK as BEHIND_CHECK
from assets.grading.behind import WATCHED as BEHIND_WATCHED
from assets.grading.behind import behind_result
from assets.grading.delta import delta_of
from assets.grading.grades import grades_of, money_check
from assets.grading.judgments import judgments_of
from assets.grading.rule_verdicts import rule_verdicts_of
from assets.grading.scorecards import scorecards_of
from assets.reports.agreement import agreement_of
from assets.reports.review import review_of
from assets.shared.made import Made
from assets.shared.partitions import pair_key, pair_of, pair_partitions
from assets.shared.resources import Project
from assets.shared.stages import READ_BY_GRADING, STAGE, by_corpus, code_version
from assets.shared.versions import grader_versions
from ragpipe.warehouse.lock import WarehouseBusy

Body = Callable[..., Made]

# what a regrade reads and never writes (its stages write verdicts, grades and what is computed from them):
# held for the run, each partition is read once, not once a stage
REGRADE_INPUTS = READ_BY_GRADING


class Pairs(Config):
    """Which pairs to regrade, as partition keys (`default|demo`); empty: every pair with stored answers."""

    pairs: list[str] = []


@op(tags=ON_WAREHOUSE_HOST)
def pairs_to_regrade(config: Pairs, duckdb: DuckDBResource) -> dict:
    """The (corpus, configuration) pairs this run regrades."""
    if config.pairs:
        standing = [list(pair_of(pair_partitions.get_partition_key_from_str(p))) for p in config.pairs]
    else:
        from ragpipe.history.whatif import stored_pairs

        with duckdb.get_connection() as conn:
            standing = [list(p) for p in stored_pairs(conn)]
    return {"standing": standing, "failed": {}}


def _partition(asset: str, corpus: str, config: str) -> str:
    return corpus if by_corpus(asset) else str(pair_key(corpus, config))


def _inputs(context: OpExecutionContext, key: AssetKey, pairs: list) -> dict[tuple[str, str], dict]:
    """{pair: {input asset: its latest materialization record}} for `key`'s inputs (the stage table's), two
    queries an input for all pairs (one a pair and input cost 6 ms: most of a small pair's regrade)."""
    storage = context.instance.event_log_storage
    found: dict[tuple[str, str], dict] = {tuple(p): {} for p in pairs}
    for dep in sorted(AssetKey(name) for name in STAGE[key.to_user_string()].inputs):
        wanted = {tuple(p): _partition(dep.to_user_string(), *p) for p in pairs}
        ids = storage.get_latest_storage_id_by_partition(
            dep, DagsterEventType.ASSET_MATERIALIZATION, set(wanted.values())
        )
        records = {}
        if ids:
            fetched = context.instance.fetch_materializations(
                AssetRecordsFilter(asset_key=dep, storage_ids=list(ids.values())), limit=len(ids)
            )
            records = {r.partition_key: r for r in fetched.records}
        for pair, partition in wanted.items():
            found[pair][dep] = records.get(partition)
    return found


def _provenance(code: str, inputs: dict, made: Made) -> dict[str, str]:
    """The tags Dagster's asset step writes on a materialization: the code version, each input's latest
    data version and event, the data version (computed from those when the body gave none)."""
    tags: dict[str, str] = {CODE_VERSION_TAG: code}
    versions = {}
    for dep, record in inputs.items():
        version = (extract_data_version_from_entry(record.event_log_entry) if record else None) or DEFAULT_DATA_VERSION
        versions[dep] = version
        tags[get_input_data_version_tag(dep)] = version.value
        tags[get_input_event_pointer_tag(dep)] = str(record.storage_id) if record else NULL_EVENT_POINTER
    if made.data_version is not None:
        tags[DATA_VERSION_TAG] = made.data_version.value
        tags[DATA_VERSION_IS_USER_PROVIDED_TAG] = "true"
    else:
        tags[DATA_VERSION_TAG] = compute_logical_data_version(code, versions).value
    return tags


class PairsFailed(RuntimeError):
    """Some pairs failed a stage: the others went on; each is named with what it failed with."""


STAGES: dict[str, str] = {}  # step name -> what it commits, in words, in the order the regrade runs them


def _over_pairs(name: str, asset: str, body: Body, after: Callable | None = None):
    """The op that runs `body` (an asset's own) for every pair still standing and records each as `asset`'s
    partition (`said`: what it commits, in words, for `ragpipe regrade` to say). A pair whose stage fails is
    said and left out of the later stages; the others go on (a busy warehouse stops the run: every pair
    would wait on it)."""
    STAGES[name] = STAGE[asset].commits

    @op(
        name=name,
        ins={"pairs": In(dict), "after": In(Nothing)},
        out=Out(dict),
        tags=ON_WAREHOUSE_HOST,
        description=body.__doc__,
    )
    def stage(context: OpExecutionContext, duckdb: DuckDBResource, project: Project, pairs: dict) -> dict:
        key = AssetKey(asset)
        failed = dict(pairs["failed"])
        inputs = _inputs(context, key, pairs["standing"])  # made by earlier steps and runs, not by this one
        version = code_version(asset, grader_versions(project)) or context.run_id
        for corpus, config_name in pairs["standing"]:
            try:
                made = body(duckdb, project, corpus, config_name, context.log, context.run_id)
            except WarehouseBusy:
                raise
            except Exception as exc:  # this pair stops here; the others go on
                failed[f"{corpus}/{config_name}"] = f"{name}: {type(exc).__name__}: {exc}"
                context.log.error(f"{corpus}/{config_name}: {failed[f'{corpus}/{config_name}']}")
                continue
            context.log_event(
                AssetMaterialization(
                    asset_key=key,
                    partition=str(pair_key(corpus, config_name)),
                    metadata=made.metadata,
                    tags=_provenance(version, inputs[(corpus, config_name)], made),
                )
            )
            if after is not None:
                for check, result in after(duckdb, corpus, config_name):
                    context.log_event(_evaluation(key, check, result))
        if asset in BEHIND_WATCHED:  # is the asset made by the loaded grader? (one check per asset)
            context.log_event(_evaluation(key, BEHIND_CHECK, behind_result(duckdb, asset, project)))
        standing = [p for p in pairs["standing"] if f"{p[0]}/{p[1]}" not in failed]
        return {"standing": standing, "failed": failed}

    return stage


@op(ins={"pairs": In(dict)}, tags=ON_WAREHOUSE_HOST)
def every_pair_done(pairs: dict) -> None:
    """Fails the run, naming each pair that failed a stage and why, when one did."""
    if pairs["failed"]:
        raise PairsFailed("; ".join(f"{pair} failed at {why}" for pair, why in sorted(pairs["failed"].items())))


def _evaluation(key: AssetKey, check: str, result) -> AssetCheckEvaluation:
    return AssetCheckEvaluation(
        asset_key=key,
        check_name=check,
        passed=result.passed,
        severity=result.severity,
        description=result.description,
        metadata=result.metadata,
    )


def _money(duckdb, corpus, config):
    return [("zero_wrong_money", money_check(duckdb, corpus, config))]


# each stage of the table (assets/shared/stages.py) with its body, in the table's order
rule_verdicts_step = _over_pairs("rule_verdicts_of_pairs", "rule_verdicts", rule_verdicts_of)
judgments_step = _over_pairs("judgments_of_pairs", "judgments", judgments_of)
grades_step = _over_pairs("grades_of_pairs", "grades", grades_of, after=_money)
scorecards_step = _over_pairs("scorecards_of_pairs", "scorecards", scorecards_of)
agreement_step = _over_pairs("agreement_of_pairs", "agreement", agreement_of)
delta_step = _over_pairs("delta_of_pairs", "grade_delta", delta_of)
review_step = _over_pairs("review_of_pairs", "review_report", review_of)


@job(
    name="regrade_pairs",
    description="Rule verdicts, judgments, grades, scorecards, agreement, the delta and the review report of "
    "every pair with stored answers (or the pairs configured), in one run: each stage one step over the pairs "
    "(`ragpipe regrade`). What a rules change re-materializes; answers are never regenerated.",
)
def regrade_pairs():
    graded = grades_step(judgments_step(rule_verdicts_step(pairs_to_regrade())))
    scored = scorecards_step(graded)
    every_pair_done(review_step(delta_step(agreement_step(scored))))
