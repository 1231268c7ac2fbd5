"""Grades: the verdict on every answer, the rules' verdicts with the judge's judgments applied."""

import pandas as pd
from dagster import (
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    AssetMaterialization,
    MaterializeResult,
    MetadataValue,
    asset,
    asset_check,
)
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST
from assets.grading.rule_verdicts import rule_verdicts_if_stale
from assets.shared.automation import AFTER_RULE_VERDICTS
from assets.shared.made import Made
from assets.shared.partitions import pair_of, pair_partitions
from assets.shared.resources import Project
from assets.shared.stages import deps
from assets.shared.versions import data_version
from ragpipe.history.behind import stale_rule_verdicts
from ragpipe.history.delta import grade_delta, said_by_direction
from ragpipe.history.ledger import store_grading
from ragpipe.judge import graded_by_pair
from ragpipe.scoring.money_bar import offending_answers
from ragpipe.warehouse.tables import read_partition, table_exists


class StaleRuleVerdicts(RuntimeError):
    """The stored rule verdicts were graded by other rules than the loaded ones: grades would mix two rulers."""


def grades_of(duckdb: DuckDBResource, project: Project, corpus: str, config: str, log, run_id: str) -> Made:
    """The pair's stored rule verdicts with the judge's stored judgments applied (no grading here), stored
    into `grades` and `grade_history` in one transaction, with the flips against the grades replaced."""
    keys = {"corpus": corpus, "config": config}
    judging = project.judging_of(corpus, config)
    rules = judging.rules
    with duckdb.get_connection() as conn:
        verdicts = read_partition(conn, "rule_verdicts", keys) if table_exists(conn, "rule_verdicts") else None
        answers = read_partition(conn, "answers", keys)
        stale = stale_rule_verdicts(verdicts, answers, project.rules_alone().version)
        if stale:
            raise StaleRuleVerdicts(
                f"{corpus}/{config}: {stale}: materialize rule_verdicts first (`ragpipe regrade`, or the "
                "`regrade` job in the UI)"
            )
        # with a judge, its stored verdicts (the `judgments` asset asked for what was missing)
        frame = graded_by_pair(conn, verdicts, answers, corpus, judging)
        before = read_partition(conn, "grades", keys) if table_exists(conn, "grades") else None
        path, event = store_grading(conn, project.root, frame, keys, rules, run_id, pd.Timestamp.now(tz="UTC"))
    counts = frame["verdict"].value_counts().to_dict() if len(frame) else {}
    judged = int(frame["judge_verdict"].notna().sum()) if "judge_verdict" in frame and len(frame) else 0
    metadata = {
        "dagster/row_count": len(frame),
        "parquet": str(path),
        "grader_version": rules.version,
        "grading_event": event["seq"],
        "new_in_history": event["history_rows"],
        "judged": judged,
        **{v: int(counts.get(v, 0)) for v in ("correct", "partial", "wrong", "ungradable")},
        "by_answer_set": by_answer_set(frame),  # the counts above sum every system of the pair
        **flips_said(before, frame, keys),
        **judge_dropped(before, rules.version),
    }
    return Made(metadata, data_version(frame))


def by_answer_set(frame: pd.DataFrame) -> MetadataValue:
    """The verdicts counted per answer set (system): the pair's totals mix them."""
    lines = ["| answer set | correct | partial | wrong | ungradable |", "|---|---|---|---|---|"]
    if len(frame):
        counts = frame.groupby(["answer_set", "verdict"]).size()
        for name in sorted(frame["answer_set"].unique()):
            cells = [str(int(counts.get((name, v), 0))) for v in ("correct", "partial", "wrong", "ungradable")]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return MetadataValue.md("\n".join(lines))


def judge_dropped(before: pd.DataFrame | None, version: str) -> dict:
    """A pair graded with a judge before and by the rules alone now (a judge named for one command, then
    not): said in the metadata, which `ragpipe run` and `regrade` print, never silent."""
    if before is None or before.empty or "+j-" in version:
        return {}
    judged = sorted(v for v in set(before["grader_version"].dropna()) if "+j-" in v)
    if not judged:
        return {}
    return {
        "judge_dropped": f"graded before with a judge ({', '.join(judged)}), now by the rules alone ({version}); "
        "to keep a judge, name it under the configuration in corpora/configs.yaml (`judge: NAME`) or pass --judge"
    }


def flips_said(before: pd.DataFrame | None, after: pd.DataFrame, keys: dict) -> dict:
    """The verdicts this grading flipped against the grades it replaces, by direction, for the run's
    metadata (the UI's materialization shows them; `grade_delta` keeps the rows)."""
    if before is None or before.empty:
        return {"flips": MetadataValue.md("graded for the first time: nothing to compare")}
    delta = grade_delta(before.assign(**keys), after.assign(**keys))
    return {
        "flipped": delta["changed"],
        "monotone": delta["monotone"],
        "flips": MetadataValue.md(said_by_direction(delta)),
    }


@asset(
    op_tags=ON_WAREHOUSE_HOST,
    partitions_def=pair_partitions,
    group_name="grading",
    kinds={"duckdb"},
    automation_condition=AFTER_RULE_VERDICTS,
    deps=deps("grades"),
)
def grades(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """Verdict (correct/partial/wrong), declined flag, failure label, deciding rule and matched spans per
    answer: the rule verdicts, with the judge's judgment deciding where one is stored (the rule verdict
    kept beside it). Nothing is graded here. Its code version is the grader version (rules and judge).
    Every verdict is also appended to `grade_history`. Materialized alone on rule verdicts another grader
    made (a rules change), it grades them again with the loaded rules first and records that, so one click
    regrades; the judge is then asked by the run the after_grading sensor starts."""
    corpus, config = pair_of(context.partition_key)
    verdicts = rule_verdicts_if_stale(duckdb, project, corpus, config, context.log, context.run.run_id)
    if verdicts is not None:
        context.log_event(
            AssetMaterialization("rule_verdicts", partition=context.partition_key, metadata=verdicts.metadata)
        )
    return grades_of(duckdb, project, corpus, config, context.log, context.run.run_id).result()


def money_check(duckdb: DuckDBResource, corpus: str, config: str) -> AssetCheckResult:
    """ZERO-WRONG-MONEY on the pair's stored grades."""
    keys = {"corpus": corpus, "config": config}
    with duckdb.get_connection() as conn:
        bad = offending_answers(read_partition(conn, "grades", keys), read_partition(conn, "answers", keys))
    return AssetCheckResult(
        passed=bad.empty,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "corpus": corpus,
            "config": config,
            "wrong_money": len(bad),
            "offending": MetadataValue.md(
                "\n".join(f"- `{r.question_id}` ({r.answer_set}): {list(r.wrong_money)}" for r in bad.itertuples())
                or "none"
            ),
            "offending_questions": MetadataValue.json(sorted(set(bad["question_id"]))),
            "blocked_sets": MetadataValue.json(sorted(set(bad["answer_set"]))),
        },
    )


@asset_check(
    op_tags=ON_WAREHOUSE_HOST,
    asset=grades,
    blocking=False,
    description="ZERO-WRONG-MONEY: no answer may assert a wrong money figure. Per system: a failing answer set's "
    "scorecard is stored marked `blocked`; the pair's other sets go on. Answer sets people labelled (every answer "
    "carries a person's verdict) calibrate the grader and are exempt.",
)
def zero_wrong_money(context: AssetCheckExecutionContext, duckdb: DuckDBResource) -> AssetCheckResult:
    corpus, config = pair_of(pair_partitions.get_partition_key_from_str(context.run.tags["dagster/partition"]))
    return money_check(duckdb, corpus, config)
