"""The Dagster definitions: every stage of ragpipe as an asset over DuckDB, one folder per domain.

Each domain (corpus, answers, grading, reports), the one-run regrade over them and the deployment's
jobs declare their own `definitions.py`; `built` merges them with the resources and the default executor,
and gives the grading stages their code versions from the grader the project resource resolves, once a
load (`grader_versions`). `defs` is what Dagster loads (workspace.yaml): lazily, so importing this module
reads no rules, no judge and no setting of the grader; each load (a reload, each step process) reads them.
"""

from dagster import Definitions, definitions, in_process_executor

import assets.answers.definitions as answers
import assets.corpus.definitions as corpus
import assets.deploy.definitions as deploy
import assets.grading.definitions as grading
import assets.regrade.definitions as regrade
import assets.reports.definitions as reports
from assets.shared.resources import default_resources
from assets.shared.stages import with_code_versions
from assets.shared.versions import grader_versions


def built(resources: dict | None = None, refuse_a_broken_grader: bool = True) -> Definitions:
    """The definitions with `resources` (else the configured warehouse's): the grading stages' code versions,
    and the UI's warning lines, from their project resource, the grader its runs grade by. A grader that
    cannot load (rules, a judge) stops the load, saying why, unless `refuse_a_broken_grader` is False: a run
    started from code then fails in its first grading step, which says the same, and writes nothing."""
    resources = resources or default_resources()
    project = resources["project"]
    merged = Definitions.merge(
        *(domain.defs for domain in (corpus, answers, grading, reports, regrade, deploy)),
        Definitions(resources=resources, executor=in_process_executor),  # one DuckDB writer at a time
    )
    try:
        versions = grader_versions(project)
    except ValueError:  # RulesError, JudgeError
        if refuse_a_broken_grader:
            raise
        return merged
    return grading.with_grader_said(with_code_versions(merged, versions), project)


@definitions
def defs() -> Definitions:
    return built()


# module-level, argument-free, for `reconstructable`: each step process loads the definitions afresh
def pair_in_processes_job():
    return defs().resolve_job_def("pair_in_processes")


def regrade_in_processes_job():
    return defs().resolve_job_def("regrade_in_processes")


def pair_on_celery_job():
    return defs().resolve_job_def("pair_on_celery")


def regrade_on_celery_job():
    return defs().resolve_job_def("regrade_on_celery")


def corpus_on_celery_job():
    return defs().resolve_job_def("corpus_on_celery")
