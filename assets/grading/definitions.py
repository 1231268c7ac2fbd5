"""The grader: rule verdicts, the judge's judgments, grades, scorecards and the delta of each grading,
with the checks and the sensor that say when they were made by an older grader, and the sensor that
brings what reads grades along."""

from dagster import Definitions, load_asset_checks_from_modules, load_assets_from_modules

from assets.grading import behind, delta, grades, judgments, rule_verdicts, scorecards
from assets.shared.automation import after_grading
from assets.shared.partitions import with_partitions_said

_modules = [rule_verdicts, judgments, grades, scorecards, delta, behind]

defs = Definitions(
    assets=with_partitions_said(load_assets_from_modules(_modules)),
    asset_checks=load_asset_checks_from_modules(_modules),
    sensors=[behind.grader_watch, after_grading],
)
