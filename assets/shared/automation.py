"""After a grading, what reads the grades follows: materializing `grades` alone (from the UI, a partition
and Materialize) brings the pair's scorecards, agreement, delta and review report along, as
`ragpipe regrade` does in one run.

A run that already plans those assets (`ragpipe run`, `ragpipe regrade`, the `regrade` job) triggers
nothing: Dagster ignores an update made by a run that also updates the asset. The sensor runs by
default wherever the Dagster daemon runs (`make dev`, the team deployment).
"""

from dagster import AssetSelection, AutomationCondition, AutomationConditionSensorDefinition, DefaultSensorStatus

READERS = ("scorecards", "agreement", "grade_delta", "review_report")  # what a grading makes stale

AFTER_GRADING = (
    AutomationCondition.any_deps_updated().allow(AssetSelection.assets("grades", *READERS)).since_last_handled()
    & ~AutomationCondition.any_deps_missing()
    & ~AutomationCondition.any_deps_in_progress()
    & ~AutomationCondition.in_progress()
).with_label("after a grading of the pair")

after_grading = AutomationConditionSensorDefinition(
    "after_grading",
    target=AssetSelection.assets(*READERS),
    default_status=DefaultSensorStatus.RUNNING,
    description="Materializes a pair's scorecards, agreement, delta and review report after its grades were "
    "materialized without them (from the UI): the numbers never lag the verdicts.",
)
