"""The grader: rule verdicts, the judge's judgments, grades, scorecards and the delta of each grading,
with the checks and the sensor that say when they were made by another grader than the one loaded, and the sensor that
brings what reads grades along."""

import os

from dagster import Definitions, load_asset_checks_from_modules, load_assets_from_modules

from assets.grading import behind, delta, grades, judgments, rule_verdicts, scorecards
from assets.shared.automation import after_grading
from assets.shared.partitions import with_partitions_said
from assets.shared.resources import Project

_modules = [rule_verdicts, judgments, grades, scorecards, delta, behind]


def with_grader_said(defs: Definitions, project: Project) -> Definitions:
    """Grades' and scorecards' descriptions led by a warning line when, as the UI loads them, some pair was
    graded by another grader than `project`'s (assets/grading/behind.py: said_at_load). Given as the
    definitions load (assets/definitions.py), never at import."""
    if not os.environ.get(behind.UI_SETTING):  # a command's own load: nothing read
        return defs
    said = behind.said_at_load(project)
    if not said:
        return defs

    def led(spec):
        line = said.get(spec.key.to_user_string())
        return spec.replace_attributes(description=f"{line}\n\n{spec.description}") if line else spec

    return defs.map_asset_specs(func=led)


defs = Definitions(
    assets=with_partitions_said(load_assets_from_modules(_modules)),
    asset_checks=load_asset_checks_from_modules(_modules),  # behind.CHECKS: one on each grading asset
    sensors=[behind.grader_watch, after_grading],
)
