"""The stages are declared once (assets/shared/stages.py): the assets' deps and code versions, the jobs'
selections and the one-run regrade's chain are all made from the table, so the graph Dagster shows is it."""

from __future__ import annotations

from dagster import AssetKey

from assets.definitions import defs
from assets.regrade.over_pairs import REGRADE_INPUTS, STAGES
from assets.shared.stages import ANSWERING, CORPUS_LEVEL, GRADED, GRADING, READ_BY_GRADING, RESCORED, code_version


def test_the_graph_is_the_table():
    graph = defs.resolve_asset_graph()
    for stage in GRADING:
        node = graph.get(AssetKey(stage.asset))
        assert {k.to_user_string() for k in node.parent_keys} == set(stage.inputs), stage.asset
        assert node.code_version == code_version(stage.asset), stage.asset
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
