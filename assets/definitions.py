"""The Dagster definitions: every stage of ragpipe as an asset over DuckDB, one folder per domain.

Each domain (corpus, answers, grading, reports), the one-run regrade over them and the deployment's
jobs declare their own `definitions.py`; this merges them with the resources and the default executor.
"""

from dagster import Definitions, in_process_executor

import assets.answers.definitions as answers
import assets.corpus.definitions as corpus
import assets.deploy.definitions as deploy
import assets.grading.definitions as grading
import assets.regrade.definitions as regrade
import assets.reports.definitions as reports
from assets.shared.resources import default_resources

# the domains' modules, not their Definitions: `dagster` loading this module by name wants one Definitions in it
defs = Definitions.merge(
    *(domain.defs for domain in (corpus, answers, grading, reports, regrade, deploy)),
    Definitions(resources=default_resources(), executor=in_process_executor),  # one DuckDB writer at a time
)


# module-level, argument-free, for `reconstructable`: each step process loads the definitions afresh
def pair_in_processes_job():
    return defs.resolve_job_def("pair_in_processes")


def regrade_in_processes_job():
    return defs.resolve_job_def("regrade_in_processes")


def pair_on_celery_job():
    return defs.resolve_job_def("pair_on_celery")


def regrade_on_celery_job():
    return defs.resolve_job_def("regrade_on_celery")


def corpus_on_celery_job():
    return defs.resolve_job_def("corpus_on_celery")
