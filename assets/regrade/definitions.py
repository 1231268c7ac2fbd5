"""The one-run regrade: every pair's grading stages in one run (`ragpipe regrade`, or Launch in the UI)."""

from dagster import Definitions

from assets.regrade.over_pairs import regrade_pairs

defs = Definitions(jobs=[regrade_pairs])
