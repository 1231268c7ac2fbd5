"""The Dagster definitions: every stage of ragpipe as an asset over DuckDB."""

from dagster import Definitions, in_process_executor, load_asset_checks_from_modules, load_assets_from_modules

from assets import agreement, answers, behind, corpus, delta, grades, index, ingest, review, scorecards
from assets.jobs import corpus_on_celery, pair_in_processes, pair_on_celery, regrade_in_processes, regrade_on_celery
from assets.resources import default_resources

_modules = [ingest, corpus, index, answers, grades, scorecards, behind, agreement, delta, review]

defs = Definitions(
    assets=load_assets_from_modules(_modules),
    asset_checks=load_asset_checks_from_modules(_modules),
    jobs=[pair_in_processes, regrade_in_processes, corpus_on_celery, pair_on_celery, regrade_on_celery],
    sensors=[behind.grader_watch],
    resources=default_resources(),
    executor=in_process_executor,  # one DuckDB writer at a time
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
