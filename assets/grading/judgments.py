"""Judgments: the model judge's verdicts on the answers the rules are unsure of, asked once and kept."""

from dagster import AssetExecutionContext, MaterializeResult, asset
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST
from assets.shared.automation import AFTER_RULE_VERDICTS
from assets.shared.made import Made
from assets.shared.partitions import pair_of, pair_partitions
from assets.shared.progress import progress_reporter
from assets.shared.resources import Project
from assets.shared.stages import deps
from ragpipe.judge import (
    Asked,
    JudgmentLog,
    absorb_judgment_logs,
    ask_missing,
    identity_of,
    log_path,
    pending,
    stored_judgments,
)
from ragpipe.warehouse.tables import read_partition


def judgments_of(duckdb: DuckDBResource, project: Project, corpus: str, config: str, log, run_id: str) -> Made:
    """Ask the pair's judge (`Project.judging_of`) about its tentative rule verdicts no stored judgment covers,
    and store what it says. The warehouse is let go while the judge is asked (minutes of HTTP calls); each
    reply is logged as it arrives (judge/reply_log.py), so a killed run's replies are stored, not paid again."""
    judging = project.judging_of(corpus, config)
    config_ = judging.config
    if config_ is None:
        return Made({"judge": "none configured", "calls": 0})
    identity = identity_of(config_)
    keys = {"corpus": corpus, "config": config}
    with duckdb.get_connection() as conn:
        recovered = absorb_judgment_logs(conn, project.root)  # replies a killed run received
        verdicts = read_partition(conn, "rule_verdicts", keys)
        answers = read_partition(conn, "answers", keys)
        questions = read_partition(conn, "questions", {"corpus": corpus})
        stored = stored_judgments(conn, identity.id)
    missing = pending(verdicts, answers, questions, stored, judging.judge_on, config_.keeps, config_.budget)
    said = progress_reporter(log, "judging", f"{corpus}/{config} by {config_.name}", project.progress_bar)
    progress = lambda asked, total: said(len(asked.judgments) + asked.errors, total)  # noqa: E731
    step = f"{corpus}--{config}--{run_id}"
    arrived = JudgmentLog(log_path(project.root, identity.id, step)) if missing else None
    try:
        asked = ask_missing(config_, identity, missing, progress, arrived) if missing else Asked()
    finally:
        if arrived is not None:
            arrived.close()
    written = 0
    if missing:
        with duckdb.get_connection() as conn:
            written = absorb_judgment_logs(conn, project.root)  # this run's replies, as they arrived
    summary = asked.summary() if missing else f"judge {config_.name}: every judgment already stored"
    log.info(summary)
    return Made(
        {
            "judge": config_.name,
            "judge_id": identity.id,
            "pending": len(missing),
            "calls": asked.calls,
            "stored": written,
            "recovered": recovered,
            "errors": asked.errors,
            "unjudged": asked.unjudged,
            "tokens": asked.prompt_tokens + asked.completion_tokens,
            "cost": round(asked.cost, 6),
            "summary": summary,
        }
    )


@asset(
    op_tags=ON_WAREHOUSE_HOST,
    partitions_def=pair_partitions,
    group_name="grading",
    kinds={"duckdb"},
    automation_condition=AFTER_RULE_VERDICTS,
    deps=deps("judgments"),
)
def judgments(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """The model judge's verdicts (table `judgments`, keyed by what the judge saw and who it is), asked
    only for answers whose stored rule verdict is tentative (RAGPIPE_JUDGE_ON=all: every answer) and
    only where none is stored: a rules change that alters no judge input asks nothing. The judge is the
    pair's configuration's (`judge:` in corpora/configs.yaml), or the one named for every pair (`ragpipe
    run|regrade --judge NAME`, RAGPIPE_JUDGE); with none, it asks nothing and stores nothing.
    An unreachable judge leaves its answers unjudged: grades then stand on the rules alone."""
    return judgments_of(duckdb, project, *pair_of(context.partition_key), context.log, context.run.run_id).result()
