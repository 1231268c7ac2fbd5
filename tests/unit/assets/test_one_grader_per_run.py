"""One grader per run: a step reads the rules and each pair's judge once, and the version the run began
with is pinned for the run in the instance, so a step in another process that reads an edited grader
stops, saying so."""

from __future__ import annotations

import pytest
from dagster import DagsterInstance, InitResourceContext
from dagster._core.storage.dagster_run import DagsterRun

from assets.shared.resources import GRADER_KEY, GraderChanged, Project
from ragpipe.grading.rules import DEFAULT_RULES
from tests.conftest import ROOT


def _step(instance: DagsterInstance, run: DagsterRun, rules) -> Project:
    """The project resource as a step of `run` sets it up (each step process does)."""
    project = Project(corpora_dir=str(ROOT / "corpora"), warehouse_dir=str(rules.parent), rules_path=str(rules))
    context = InitResourceContext(None, resources=None, resource_def=None, all_resource_defs={}, instance=instance,
                                  dagster_run=run)  # fmt: skip
    project.setup_for_execution(context)
    return project


def test_a_step_reading_an_edited_grader_stops_and_one_process_reads_it_once(tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(DEFAULT_RULES.read_text())
    with DagsterInstance.ephemeral() as instance:
        run = instance.add_run(DagsterRun(job_name="regrade_pairs", run_id="r1"))
        first = _step(instance, run, rules)
        began = first.rules_alone().version
        key = f"{GRADER_KEY}r1/rules"
        assert instance.run_storage.get_cursor_values({key}) == {key: began}
        assert not any(t.startswith(GRADER_KEY) for t in instance.get_run_by_id("r1").tags)  # tags left alone
        rules.write_text(DEFAULT_RULES.read_text() + "\n# edited while the run runs\n")
        assert first.rules_alone().version == began  # read once in this step's process
        later = _step(instance, instance.get_run_by_id("r1"), rules)
        with pytest.raises(GraderChanged, match=f"it began with {began} and now reads g-"):
            later.rules_alone()
        other_run = instance.add_run(DagsterRun(job_name="regrade_pairs", run_id="r2"))
        assert _step(instance, other_run, rules).rules_alone().version != began  # the next run reads the edit


def test_outside_a_run_the_grader_is_read_as_the_files_are_now(tmp_path):
    """A sensor's tick or a command's own read is no run: nothing pinned, an edit is read at once."""
    rules = tmp_path / "rules.yaml"
    rules.write_text(DEFAULT_RULES.read_text())
    project = Project(corpora_dir=str(ROOT / "corpora"), warehouse_dir=str(tmp_path), rules_path=str(rules))
    began = project.rules_alone().version
    rules.write_text(DEFAULT_RULES.read_text() + "\n# edited\n")
    assert project.rules_alone().version != began
