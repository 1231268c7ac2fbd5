"""Code versions and data versions: what makes an asset stale in the Dagster UI.

Rule verdicts carry the rules' version; grades and everything computed from them (scorecards, agreement, the delta,
the review report) carry the grader version as their code version, so a
rules or grading-code change shows all of them stale as soon as the
definitions reload, before anything re-materializes. The versions are the grader the definitions are loaded
with resolves (`grader_versions`, from the project resource that grades: assets/definitions.py), never read
at import. Every asset reports a data version computed from the content it stored, so a rerun that changes
no content leaves everything downstream fresh.
"""

import warnings

from dagster import BetaWarning, DataVersion

from assets.shared.resources import Project
from ragpipe.retrieval.fingerprint import content_version


def grader_versions(project: Project) -> dict[str, str]:
    """{"rules": the rule verdicts' version (the judge is not theirs), "grader": the rules naming the judge
    set for every pair, if one}: what the grading stages are stale against, resolved by the project resource
    that grades (`Project.rules`, `Project.rules_alone`), the same resolution its runs grade by."""
    return {"rules": project.rules_alone().version, "grader": project.rules().version}


# Output(data_version=...) is marked beta in Dagster 1.13; it is the documented way to report one
warnings.filterwarnings("ignore", category=BetaWarning, message=".*data_version.*")


def data_version(*frames) -> DataVersion:
    return DataVersion(content_version(*frames))
