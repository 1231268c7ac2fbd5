"""The stages are declared once (assets/shared/stages.py): the assets' deps and code versions, the jobs'
selections and the one-run regrade's chain are all made from the table, so the graph Dagster shows is it."""

from __future__ import annotations

from dagster import AssetKey

from assets.definitions import built
from assets.regrade.over_pairs import REGRADE_INPUTS, STAGES
from assets.shared.resources import default_resources
from assets.shared.stages import ANSWERING, CORPUS_LEVEL, GRADED, GRADING, READ_BY_GRADING, RESCORED, code_version
from assets.shared.versions import grader_versions

defs = built()  # loaded as Dagster loads them (assets.definitions:defs)
VERSIONS = grader_versions(default_resources()["project"])


def test_the_graph_is_the_table():
    graph = defs.resolve_asset_graph()
    for stage in GRADING:
        node = graph.get(AssetKey(stage.asset))
        assert {k.to_user_string() for k in node.parent_keys} == set(stage.inputs), stage.asset
        assert node.code_version == code_version(stage.asset, VERSIONS), stage.asset
    assert {k.to_user_string() for k in graph.get_all_asset_keys()} == {*CORPUS_LEVEL, *ANSWERING, *GRADED}


def test_each_stage_runs_after_what_it_reads_and_the_regrade_says_them_in_order():
    made: set[str] = set()
    for stage in GRADING:
        assert set(stage.inputs) <= made | set(READ_BY_GRADING), stage.asset
        made.add(stage.asset)
    assert list(STAGES.values()) == [stage.commits for stage in GRADING]
    assert REGRADE_INPUTS == READ_BY_GRADING and not set(READ_BY_GRADING) & set(GRADED)


def test_the_jobs_select_from_the_table():
    selected = {
        name: {k.to_user_string() for k in defs.resolve_job_def(name).asset_layer.selected_asset_keys}
        for name in ("corpus", "pair", "regrade", "rescore")
    }
    assert selected == {
        "corpus": set(CORPUS_LEVEL),
        "pair": {*ANSWERING, *GRADED},
        "regrade": set(GRADED),
        "rescore": set(RESCORED),
    }


def test_importing_the_definitions_reads_no_grader_and_each_load_reads_its_own(tmp_path):
    """The grader is resolved as the definitions load, from the project resource the runs grade by: an import
    with rules that cannot load succeeds (nothing read), the load says why; a load with other rules gives the
    grading stages those rules' version, the rest none of theirs."""
    import os
    import subprocess
    import sys

    from assets.definitions import built
    from ragpipe.grading.rules import DEFAULT_RULES, load_rules
    from tests.conftest import ROOT, warehouse_resources

    broken = tmp_path / "broken.yaml"
    broken.write_text("declines: [")
    code = "import assets.definitions as d; print('imported'); d.defs()"
    env = {**os.environ, "RAGPIPE_RULES": str(broken)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.stdout.strip() == "imported" and "broken.yaml" in done.stderr and done.returncode != 0
    other = tmp_path / "other.yaml"
    other.write_text(DEFAULT_RULES.read_text().replace("    - could not find\n", ""))
    graph = built(warehouse_resources(tmp_path / "wh", rules_path=other)).resolve_asset_graph()
    version = load_rules(other).version
    assert version != load_rules().version
    assert {s.asset: graph.get(AssetKey(s.asset)).code_version for s in GRADING} == {
        s.asset: None if s.versioned_by is None else version for s in GRADING
    }
