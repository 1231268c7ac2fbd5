"""Agreement: the grader graded against people, per grader version."""

from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.deploy.queues import ON_WAREHOUSE_HOST
from assets.shared.automation import AFTER_GRADING
from assets.shared.made import Made
from assets.shared.partitions import pair_of, pair_partitions
from assets.shared.resources import Project
from assets.shared.stages import deps
from assets.shared.versions import data_version
from ragpipe.grader_agreement.agreement import agreement_report, agreement_rows, confusion_markdown, labelled_frame
from ragpipe.labels.store import people_labels
from ragpipe.warehouse.tables import read_partition, store


@asset(
    op_tags=ON_WAREHOUSE_HOST,
    partitions_def=pair_partitions,
    group_name="grading",
    kinds={"duckdb"},
    deps=deps("agreement"),
    automation_condition=AFTER_GRADING,
)
def agreement(context: AssetExecutionContext, duckdb: DuckDBResource, project: Project) -> MaterializeResult:
    """How far the grader agrees with people on human-labelled answers (imported labelled sets and
    `human_labels`): accuracy, Cohen's kappa, refusal precision/recall/F1, false 'correct' (numeric too),
    bias (the grader's accuracy minus people's), confusion; overall, per question type, per answer set
    and per firmness. Kept per grader version, so a rule change shows its effect."""
    return agreement_of(duckdb, project, *pair_of(context.partition_key), context.log, context.run.run_id).result()


def agreement_of(duckdb: DuckDBResource, project: Project, corpus: str, config: str, log, run_id: str) -> Made:
    """The pair's agreement with people under its stored grades, stored per grader version."""
    keys = {"corpus": corpus, "config": config}
    with duckdb.get_connection() as conn:
        answers = read_partition(conn, "answers", keys)
        frame = labelled_frame(
            read_partition(conn, "grades", keys),
            answers,
            read_partition(conn, "questions", {"corpus": corpus}),
            people_labels(conn, corpus, config, answers),
        )
        if frame.empty:
            return Made(
                data_version=data_version(frame),
                metadata={"dagster/row_count": 0, "note": "no human-labelled answers in this pair"},
            )
        version = str(frame["grader_version"].iloc[0])
        report = agreement_report(frame)
        rows = agreement_rows(report, corpus, config, version)
        path = store(conn, project.root, "agreement", rows, {**keys, "grader_version": version})
    return Made(
        data_version=data_version(rows),
        metadata={
            "dagster/row_count": len(rows),
            "parquet": str(path),
            "grader_version": version,
            "n": report["n"],
            "accuracy": report["accuracy"],
            "kappa": report["kappa"],
            "refusal_f1": report["refusal"]["f1"],
            "false_correct": report["false_correct"],
            "false_correct_numeric": report["false_correct_numeric"],
            "bias": report["bias"],
            "confusion": MetadataValue.md(confusion_markdown(report["confusion"])),
        },
    )
