"""Code versions and data versions: what makes an asset stale in the Dagster UI.

Rule verdicts carry the rules' version; grades and everything computed from them (scorecards, agreement, the delta,
the review report) carry the grader version as their code version, so a
rules or grading-code change shows all of them stale as soon as the
definitions reload, before anything re-materializes. Every asset reports a
data version computed from the content it stored, so a rerun that changes no
content leaves everything downstream fresh.
"""

import warnings

from dagster import BetaWarning, DataVersion

from assets.shared.resources import default_resources
from ragpipe.retrieval.fingerprint import content_version

# The grader is resolved in one place, the project resource the definitions run with (`Project.rules`,
# `Project.rules_alone`, `Project.judging_of`): the code versions are read from it as the definitions load,
# the same resolution the stages grade by, not from the settings a second time.
_PROJECT = default_resources()["project"]
GRADER_VERSION = _PROJECT.rules().version  # the rules, naming the judge when one is set for every pair
RULES_VERSION = _PROJECT.rules_alone().version  # the rule verdicts' own: the judge is not theirs

# Output(data_version=...) is marked beta in Dagster 1.13; it is the documented way to report one
warnings.filterwarnings("ignore", category=BetaWarning, message=".*data_version.*")


def data_version(*frames) -> DataVersion:
    return DataVersion(content_version(*frames))
