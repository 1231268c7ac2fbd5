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

from ragpipe.grading.rules import load_rules
from ragpipe.judge import rules_judged_by
from ragpipe.retrieval.fingerprint import content_version
from ragpipe.warehouse.settings import judge_setting, judges_path, rules_path


def _grader_version() -> str:
    """The rules' version, naming the judge too when one is set (RAGPIPE_JUDGE)."""
    return rules_judged_by(load_rules(rules_path()), judges_path(), judge_setting()[0]).version


GRADER_VERSION = _grader_version()
RULES_VERSION = load_rules(rules_path()).version  # the rule verdicts' own: the judge is not theirs

# Output(data_version=...) is marked beta in Dagster 1.13; it is the documented way to report one
warnings.filterwarnings("ignore", category=BetaWarning, message=".*data_version.*")


def data_version(*frames) -> DataVersion:
    return DataVersion(content_version(*frames))
