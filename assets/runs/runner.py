"""Materialize the pipeline from code (the CLI and the tests use this).

A run holds assets of one partitions definition, so one corpus takes one run
for its corpus-level stages and one run per configuration for the rest.
"""

from __future__ import annotations

import os
import re
import socket
import sys
import warnings
from contextlib import nullcontext

from dagster import DagsterInstance, Definitions, execute_job, reconstructable

from assets.definitions import (
    built,
    corpus_on_celery_job,
    pair_in_processes_job,
    pair_on_celery_job,
    regrade_in_processes_job,
    regrade_on_celery_job,
)
from assets.deploy.jobs import IN_PROCESS
from assets.regrade.over_pairs import REGRADE_INPUTS, STAGES, grades_step, regrade_pairs
from assets.runs.ui_origin import seen_by_the_ui
from assets.shared.liveness import HOST_TAG, PID_TAG
from assets.shared.partitions import CONFIGS, corpus_partitions, pair_key, pair_of, pair_partitions
from assets.shared.resources import default_resources
from ragpipe.cli.orchestrator import COMMAND_TAG, command

# the console logger at WARNING: run history keeps every event; the terminal does not need them
QUIET = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}
# a regrade says what each pair committed and where it stopped, a line each (`pairs_stopped`): Dagster's own
# error lines and stack traces would repeat it at length
SILENT = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}


def _tags(extra: dict | None = None) -> dict:
    """Tags of a run started from code: the process that drives it, so a later run can tell a run
    that was killed (its process gone) from one still going (see assets/shared/liveness.py)."""
    said = {COMMAND_TAG: command()} if command() else {}
    return {PID_TAG: str(os.getpid()), HOST_TAG: socket.gethostname(), **said, **(extra or {})}


def _in_process(
    job: str,
    partition_key: str | None,
    instance: DagsterInstance | None,
    resources: dict | None,
    raise_on_error: bool,
    run_config: dict | None = None,
):
    """Run the named job (assets/deploy/jobs.py `IN_PROCESS`) for one partition in this process, with
    these resources: as `materialize()` does, but the run list shows `regrade`, not `__ephemeral_asset_job__`."""
    resources = resources or default_resources()
    # the grading stages' code versions from these resources' grader; one that cannot load is the run's failure
    loaded = built(resources, refuse_a_broken_grader=False)
    bound = Definitions(
        assets=list(loaded.assets or []),
        asset_checks=list(loaded.asset_checks or []),
        jobs=[{**IN_PROCESS, regrade_pairs.name: regrade_pairs}[job]],
        resources=resources,
    )
    with seen_by_the_ui(instance):
        return bound.resolve_job_def(job).execute_in_process(
            run_config={**QUIET, **(run_config or {})},
            instance=instance,
            partition_key=partition_key,
            raise_on_error=raise_on_error,
            tags=_tags(),
        )


def run_corpus_stages(corpus: str, instance: DagsterInstance | None = None, resources: dict | None = None):
    """Materialize the corpus-level stages (ingest, questions, needles) of `corpus`."""
    return _in_process("corpus", corpus, instance, resources, raise_on_error=True)


def run_corpus(
    corpus: str,
    configs: list[str] | None = None,
    instance: DagsterInstance | None = None,
    resources: dict | None = None,
    in_processes: bool = False,
    on_celery: bool = False,
    project: dict | None = None,
) -> list:
    """Materialize everything for `corpus` and each configuration; returns the run results.
    `in_processes`: each pair through the multiprocess job, `project` (the project resource's
    fields a run sets: shards, engine override) passed as its run config."""
    resources = resources or default_resources()
    if on_celery:  # a failed run is a result here (in one process, it raises)
        results = [run_corpus_stages_on_celery(corpus, instance, project=project)]
        if not results[0].success:
            return results
    else:
        results = [run_corpus_stages(corpus, instance, resources)]
    for config in configs or CONFIGS:
        if on_celery:
            results.append(run_pair_on_celery(corpus, config, instance, project=project))
            continue
        if in_processes:
            results.append(run_pair_in_processes(corpus, config, instance, project=project))
            continue
        results.append(_in_process("pair", pair_key(corpus, config), instance, resources, raise_on_error=False))
    return results


def regrade_pair(corpus: str, config: str, instance: DagsterInstance | None = None, resources: dict | None = None):
    """Re-materialize grades and scorecards only, from the stored answers; the steps share one warehouse
    connection (`Warehouse.held`: they are short, and all in this process)."""
    return _in_process_held("regrade", pair_key(corpus, config), instance, resources)


def regrade_in_one_run(pairs: list[tuple[str, str]], instance: DagsterInstance | None = None, resources=None):
    """Re-materialize the grading stages of every pair in `pairs` in ONE run (assets/regrade/over_pairs.py):
    each stage a step over the pairs, so a regrade costs by answers, not by pairs."""
    resources = resources or default_resources()
    config = {"ops": {"pairs_to_regrade": {"config": {"pairs": [str(pair_key(c, g)) for c, g in pairs]}}}, **SILENT}
    with _held_unless_judging(resources, pairs, inputs=REGRADE_INPUTS):
        return _in_process("regrade_pairs", None, instance, resources, raise_on_error=False, run_config=config)


def rescore_pair(corpus: str, config: str, instance: DagsterInstance | None = None, resources: dict | None = None):
    """Re-materialize scorecards (and the reports that read them) only: people's labels changed, the grades
    did not, so no grading is recorded and `ragpipe delta` still shows the last rules change's flips."""
    return _in_process_held("rescore", pair_key(corpus, config), instance, resources)


def _in_process_held(job: str, partition_key: str, instance: DagsterInstance | None, resources: dict | None):
    """`_in_process` for a run of short steps (a regrade, a rescore), the warehouse held for the run."""
    resources = resources or default_resources()
    with _held_unless_judging(resources, [pair_of(partition_key)]):
        return _in_process(job, partition_key, instance, resources, raise_on_error=False)


def _held_unless_judging(resources: dict, pairs: list[tuple[str, str]], inputs: tuple[str, ...] = ()):
    """The warehouse held for the run (`Warehouse.held`, each partition of `inputs` read once), unless its
    judgments step will ask a model judge about one of `pairs`: minutes of HTTP calls, during which the
    step lets go of the file and other processes may use it."""
    if any(resources["project"].judge_of(c, k) for c, k in pairs):
        return nullcontext()
    return resources["duckdb"].held(inputs)


def _failed_steps(results: list):
    """(step key, the error it failed with) for each failed step of these runs."""
    for result in results:
        for event in result.get_step_failure_events():
            yield event.step_key, event.event_specific_data.error


def _chain(error, context: bool):
    """The error and what caused it (and, with `context`, what it was raised while handling)."""
    while error is not None:
        yield error
        error = error.cause or (error.context if context else None)


def busy_in(results: list) -> str | None:
    """The "warehouse busy" message of a step that could not open the warehouse in time, if any."""
    for _, error in _failed_steps(results):
        for e in _chain(error, context=True):
            if e.cls_name == "WarehouseBusy":
                return e.message.split(": ", 1)[-1].strip()
    return None


def failure_in(results: list) -> str | None:
    """What the first failed step said, at its root cause ("IOException: ... No space left on device")."""
    for step, error in _failed_steps(results):
        *_, root = _chain(error, context=False)
        return f"step {step}: {root.message.strip().splitlines()[0]}"
    return None


_STOPPED = re.compile(
    r"(?P<pair>[^;\s]+/[^;\s]+) failed at (?P<step>\w+): (?P<why>.*?)(?=; [^;\s]+/[^;\s]+ failed at |$)"
)


def pairs_stopped(results: list) -> list[tuple[str, str, bool]]:
    """(pair, "demo/default: committed rule verdicts, judgments, grades and their history, ...; not done: the
    review report (NotADirectoryError: ...)", whether its grades were committed) for each pair a regrade's
    stage failed (assets/regrade/over_pairs.py: PairsFailed names each): what is in the warehouse, and what
    is not."""
    lines = []
    for _, failure in _failed_steps(results):
        said = [e for e in _chain(failure, context=False) if e.cls_name == "PairsFailed"]
        if not said:
            continue
        for m in _STOPPED.finditer(said[0].message.strip().splitlines()[0].split("PairsFailed: ", 1)[-1]):
            names = list(STAGES)
            stopped = names.index(m["step"]) if m["step"] in names else 0
            done = [STAGES[s] for s in names[:stopped]]
            line = (
                f"{m['pair']}: committed {', '.join(done) if done else 'nothing'}; not done: "
                f"{', '.join(STAGES[s] for s in names[stopped:])} ({m['why']})"
            )
            lines.append((m["pair"], line, stopped > names.index(grades_step.name)))
    return lines


def _said_by(results: list, asset: str):
    """(corpus, configuration, metadata) of each materialization of `asset` in these runs."""
    for result in results:
        for event in result.get_asset_materialization_events():
            materialization = event.materialization
            if materialization.asset_key.to_user_string() == asset:
                partition = pair_partitions.get_partition_key_from_str(materialization.partition)
                yield *pair_of(partition), materialization.metadata


def judge_said(results: list) -> list[str]:
    """ "demo/default: judge: 12 call(s), ..." for each pair a model judge was asked about in these runs."""
    return [f"{c}/{g}: {said['summary'].value}" for c, g, said in _said_by(results, "judgments") if "summary" in said]


def flips_said(results: list) -> list[str]:
    """ "demo/default: 4 verdict(s) flipped (correct -> wrong: 4), not monotone; `ragpipe delta --corpus demo
    --config default` lists them" for each pair these runs graded again (a first grading says nothing)."""
    lines = []
    for corpus, config, said in _said_by(results, "grades"):
        if "flipped" not in said:
            continue
        flipped = int(said["flipped"].value)
        if not flipped:
            lines.append(f"{corpus}/{config}: no verdict flipped")
            continue
        ways = [line.split(": ", 1)[1] for line in said["flips"].value.splitlines() if line.startswith("- ")]
        worse = "" if said["monotone"].value else ", not monotone (a correct verdict got worse)"
        lines.append(
            f"{corpus}/{config}: {flipped} verdict(s) flipped ({'; '.join(ways)}){worse}; "
            f"`ragpipe delta --corpus {corpus} --config {config}` lists them"
        )
    return lines


def judge_dropped_said(results: list) -> list[str]:
    """ "demo/default: graded before with a judge (...), now by the rules alone ..." for each pair these runs
    graded without the judge its grades had."""
    dropped = _said_by(results, "grades")
    return [f"{c}/{g}: {said['judge_dropped'].value}" for c, g, said in dropped if "judge_dropped" in said]


def run_failures(results: list):
    """The error of each failed run (not a step's: the run's own, as when its executor lost its broker)."""
    from dagster import DagsterEventType

    for result in results:
        for event in result.all_events:
            if event.event_type == DagsterEventType.RUN_FAILURE and event.event_specific_data is not None:
                yield event.event_specific_data.error


def failed_money_checks(results: list) -> list[dict]:
    """The ZERO-WRONG-MONEY evaluations that failed in these runs, with their metadata."""
    failed = []
    for result in results:
        for evaluation in result.get_asset_check_evaluations():
            if evaluation.check_name == "zero_wrong_money" and not evaluation.passed:
                failed.append({k: v.value for k, v in evaluation.metadata.items()})
    return failed


def _project_config(fields: dict) -> dict:
    """The `project` resource's whole configuration (run config replaces it whole): the configured
    warehouse's, with the run's fields over it."""
    base = default_resources()["project"]
    return {**{name: getattr(base, name) for name in type(base).model_fields}, **fields}


def run_pair_in_processes(
    corpus: str,
    config: str,
    instance: DagsterInstance,
    regrade_only: bool = False,
    project: dict | None = None,
):
    """One pair's stages through a multiprocess job, its shards side by side. Step processes are
    forked from a server that loaded the definitions once for this run; `project` fields reach them
    as run config. The instance must be persistent (DAGSTER_HOME), since steps report to it from
    other processes."""
    job = regrade_in_processes_job if regrade_only else pair_in_processes_job
    run_config = {**QUIET, "resources": {"project": {"config": _project_config(project)}}} if project else QUIET
    try:
        return _execute_pair(job, corpus, config, instance, run_config)
    finally:
        _stop_forkserver()


def _execute_pair(job, corpus: str, config: str, instance: DagsterInstance, run_config: dict):
    """One pair's job run from its module-level factory, so other processes can load it."""
    return _execute(job, pair_partitions.get_tags_for_partition_key(pair_key(corpus, config)), instance, run_config)


def _execute(job, partition_tags: dict, instance: DagsterInstance, run_config: dict):
    with seen_by_the_ui(instance):
        return execute_job(reconstructable(job), instance=instance, run_config=run_config, tags=_tags(partition_tags))


def run_pair_on_celery(
    corpus: str, config: str, instance: DagsterInstance, regrade_only: bool = False, project: dict | None = None
):
    """One pair's stages on Celery workers (assets/deploy/celery.py, docs/deploy.md): this process plans and
    waits; workers run the steps and report to the instance, which must be one they reach too
    (PostgreSQL, RAGPIPE_POSTGRES_URL)."""
    job = regrade_on_celery_job if regrade_only else pair_on_celery_job
    return _execute_pair(job, corpus, config, instance, _celery_run_config(project))


def run_corpus_stages_on_celery(corpus: str, instance: DagsterInstance, project: dict | None = None):
    """Ingest, questions and needles of `corpus` on Celery workers: the PDFs parsed in shards on any
    worker that reaches the corpus folder, the rest on the warehouse host's queue."""
    return _execute(
        corpus_on_celery_job,
        corpus_partitions.get_tags_for_partition_key(corpus),
        instance,
        _celery_run_config(project),
    )


def _celery_run_config(project: dict | None) -> dict:
    """A Celery run's config, this process readied for it: Redis named or said missing in one line,
    Celery's teardown and re-registration noise silenced."""
    from assets.deploy.celery import CeleryNotConfigured, redis_url, unserved_queues
    from assets.deploy.queues import SHARD_QUEUE, WAREHOUSE_QUEUE

    # the terminal gets ragpipe's one line on failure, not the run's error log (it stays in the run's history)
    quiet = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
    redis_url()  # said in one line when it is not set
    missing = unserved_queues([WAREHOUSE_QUEUE, SHARD_QUEUE])
    if missing:
        raise CeleryNotConfigured(
            f"no Celery worker serves the queue(s) {', '.join(missing)}, so nothing was run: start one "
            f"(`python -m assets.deploy.worker --name NAME --queue {missing[0]}`, docs/deploy.md)"
        )
    _quiet_celery_teardown()
    # dagster-celery makes its task once per step submitted; Celery warns each time after the first
    warnings.filterwarnings("ignore", message="Task name 'execute_plan' is already registered")
    # the launcher's paths and rules travel with the run: a worker's own environment names none of them
    return {**quiet, "resources": {"project": {"config": _project_config(project or {})}}}


def _quiet_celery_teardown() -> None:
    """Celery's pending results, collected at exit after Redis went away, print "Exception ignored in
    AsyncResult.__del__" tracebacks; the failure itself has been said in one line."""
    previous = sys.unraisablehook
    if getattr(previous, "ragpipe_quiet", False):
        return

    def hook(unraisable) -> None:
        if not str(getattr(unraisable.object, "__module__", "")).startswith("celery"):
            previous(unraisable)

    hook.ragpipe_quiet = True
    sys.unraisablehook = hook


def _stop_forkserver() -> None:
    """The step processes' fork server (assets/deploy/jobs.py) holds the definitions and the environment
    of the run that started it: stopped after each run, the next run's steps see their own."""
    from multiprocessing import forkserver

    stop = getattr(forkserver._forkserver, "_stop", None)  # CPython's, there since 3.8
    if stop is not None:
        stop()
