"""After a grading, what reads it follows: materializing `rule_verdicts` alone (from the UI, a partition
and Materialize, after a rules change) brings the pair's judgments and grades along, and grades bring
the scorecards, agreement, delta and review report, as `ragpipe regrade` does in one run.

A run that already plans those assets (`ragpipe run`, `ragpipe regrade`, the `regrade` job) triggers
nothing: Dagster ignores an update made by a run that also updates the asset. The sensor runs by
default wherever the Dagster daemon runs (`make dev`, the team deployment).
"""

from dagster import AssetSelection, AutomationCondition, AutomationConditionSensorDefinition, DefaultSensorStatus

GRADED_FROM_VERDICTS = ("judgments", "grades")  # what new rule verdicts make stale
READERS = ("scorecards", "agreement", "grade_delta", "review_report")  # what a grading makes stale

AFTER_RULE_VERDICTS = (
    AutomationCondition.any_deps_updated()
    .allow(AssetSelection.assets("rule_verdicts", *GRADED_FROM_VERDICTS))
    .since_last_handled()
    & ~AutomationCondition.any_deps_missing()
    & ~AutomationCondition.any_deps_in_progress()
    & ~AutomationCondition.in_progress()
).with_label("after new rule verdicts of the pair")

AFTER_GRADING = (
    AutomationCondition.any_deps_updated().allow(AssetSelection.assets("grades", *READERS)).since_last_handled()
    & ~AutomationCondition.any_deps_missing()
    & ~AutomationCondition.any_deps_in_progress()
    & ~AutomationCondition.in_progress()
).with_label("after a grading of the pair")

after_grading = AutomationConditionSensorDefinition(
    "after_grading",
    target=AssetSelection.assets(*GRADED_FROM_VERDICTS, *READERS),
    default_status=DefaultSensorStatus.RUNNING,
    run_tags={"ragpipe/command": "after_grading: what a grading from the UI makes stale"},
    description="Materializes a pair's judgments and grades after its rule verdicts, and its scorecards, agreement, "
    "delta and review report after its grades, were materialized without them (from the UI): the numbers never "
    "lag the verdicts.",
)
