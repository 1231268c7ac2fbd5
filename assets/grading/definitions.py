"""The grader: rule verdicts, the judge's judgments, grades, scorecards and the delta of each grading,
with the checks and the sensor that say when they were made by another grader than the one loaded, and the sensor that
brings what reads grades along."""

import os

from dagster import Definitions, load_asset_checks_from_modules, load_assets_from_modules, map_asset_specs

from assets.grading import behind, delta, grades, judgments, rule_verdicts, scorecards
from assets.shared.automation import after_grading
from assets.shared.partitions import with_partitions_said
from assets.shared.resources import default_resources

_modules = [rule_verdicts, judgments, grades, scorecards, delta, behind]


def _with_grader_said(assets: list) -> list:
    """Grades' and scorecards' descriptions led by a warning line when, as the UI loads them, some pair was
    graded by another grader than the loaded one (assets/grading/behind.py: said_at_load)."""
    if not os.environ.get(behind.UI_SETTING):  # a command's own load: nothing read, no resources built
        return assets
    said = behind.said_at_load(default_resources()["project"])
    if not said:
        return assets

    def led(spec):
        line = said.get(spec.key.to_user_string())
        return spec.replace_attributes(description=f"{line}\n\n{spec.description}") if line else spec

    return map_asset_specs(led, assets)


defs = Definitions(
    assets=_with_grader_said(with_partitions_said(load_assets_from_modules(_modules))),
    asset_checks=load_asset_checks_from_modules(_modules),  # behind.CHECKS: one on each grading asset
    sensors=[behind.grader_watch, after_grading],
)
