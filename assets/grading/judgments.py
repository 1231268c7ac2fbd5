"""Judgments: the model judge's verdicts on the answers the rules are unsure of, asked once and kept."""

from dagster import AssetExecutionContext, MaterializeResult, asset
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST
from assets.shared.partitions import pair_of, pair_partitions
from assets.shared.resources import Project
from ragpipe.grading.grade_table import grade_answers
from ragpipe.grading.judge.ask import ask_missing
from ragpipe.grading.judge.config import identity_of
from ragpipe.grading.judge.judging import pending
from ragpipe.grading.judge.store import judgments_frame, store_judgments, stored_judgments
from ragpipe.warehouse.tables import read_partition


@asset(
    op_tags=ON_WAREHOUSE_HOST,
    partitions_def=pair_partitions,
    group_name="grading",
    kinds={"duckdb"},
    deps=["answers", "questions", "needles"],
)
def judgments(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """The model judge's verdicts (table `judgments`, keyed by what the judge saw and who it is), asked
    only for answers whose rule-based verdict is tentative (RAGPIPE_JUDGE_ON=all: every answer) and
    only where none is stored: a rules change that alters no judge input asks nothing. With no judge
    configured (RAGPIPE_JUDGE, `ragpipe run|regrade --judge NAME`) it asks nothing and stores nothing.
    An unreachable judge leaves its answers unjudged: grades then stand on the rules alone."""
    config = project.judge_config()
    if config is None:
        return MaterializeResult(metadata={"judge": "none configured", "calls": 0})
    if not project.judge_asks:  # `ragpipe regrade --judge` asked before the run, on the terminal
        return MaterializeResult(metadata={"judge": config.name, "calls": 0, "summary": "asked by the command"})
    identity = identity_of(config)
    corpus, pair_config = pair_of(context.partition_key)
    with duckdb.get_connection() as conn:
        answers = read_partition(conn, "answers", {"corpus": corpus, "config": pair_config})
        questions = read_partition(conn, "questions", {"corpus": corpus})
        needles = read_partition(conn, "needles", {"corpus": corpus})
        stored = stored_judgments(conn, identity.id)
    grades = grade_answers(answers, questions, needles, project.rules())
    missing = pending(grades, answers, questions, stored, project.judge_on)

    def progress(asked, total):
        if asked.calls % 25 == 0 or asked.calls == total:
            context.log.info(f"judge {config.name}: {asked.calls}/{total} calls, {asked.errors} error(s)")

    asked = ask_missing(config, identity, missing, progress) if missing else None
    written = 0
    if asked is not None and asked.judgments:
        with duckdb.get_connection() as conn:
            written = store_judgments(conn, judgments_frame(asked.judgments))
    summary = asked.summary() if asked is not None else f"judge {config.name}: every judgment already stored"
    context.log.info(summary)
    return MaterializeResult(
        metadata={
            "judge": config.name,
            "judge_id": identity.id,
            "pending": len(missing),
            "calls": asked.calls if asked else 0,
            "stored": written,
            "errors": asked.errors if asked else 0,
            "unjudged": asked.unjudged if asked else 0,
            "tokens": (asked.prompt_tokens + asked.completion_tokens) if asked else 0,
            "cost": round(asked.cost, 6) if asked else 0.0,
            "summary": summary,
        }
    )
