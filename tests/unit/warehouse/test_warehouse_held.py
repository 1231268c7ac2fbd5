"""A regrade's steps share one warehouse connection (`Warehouse.held`), and let go of the file after."""

import duckdb
import pytest

from assets.shared.resources import Warehouse
from ragpipe.warehouse.lock import open_read_only


def test_inside_held_every_step_gets_the_one_connection_and_it_stays_open(tmp_path):
    warehouse = Warehouse(database=str(tmp_path / "w.duckdb"))
    with warehouse.held():
        with warehouse.get_connection() as first:
            first.execute("CREATE TABLE t AS SELECT 1 AS x")
        with warehouse.get_connection() as second:
            assert second is first
            assert second.execute("SELECT x FROM t").fetchall() == [(1,)]  # not closed by the step before
        with warehouse.held():  # held further up already: the inner block must not close it
            pass
        with warehouse.get_connection() as third:
            assert third is first


def test_after_held_the_connection_is_closed_and_the_file_free(tmp_path):
    warehouse = Warehouse(database=str(tmp_path / "w.duckdb"))
    with warehouse.held():
        with warehouse.get_connection() as conn:
            conn.execute("CREATE TABLE t AS SELECT 1 AS x")
    with pytest.raises(duckdb.ConnectionException):
        conn.execute("SELECT 1")
    reader = open_read_only(tmp_path / "w.duckdb", wait=0)  # a read-only open: refused while a writer holds it
    try:
        assert reader.execute("SELECT x FROM t").fetchall() == [(1,)]
    finally:
        reader.close()


def test_outside_held_each_step_opens_its_own_connection(tmp_path):
    warehouse = Warehouse(database=str(tmp_path / "w.duckdb"))
    with warehouse.get_connection() as first:
        first.execute("SELECT 1")
    with warehouse.get_connection() as second:
        assert second is not first


def test_a_regrade_holds_the_warehouse_unless_it_asks_a_model_judge(tmp_path):
    """Asking a judge takes minutes of HTTP calls, during which the judgments step lets go of the file: a
    regrade that will ask holds nothing, so other processes can use the warehouse meanwhile."""
    from assets.runs.runner import _held_unless_judging
    from assets.shared.resources import _HELD, resources_for
    from tests.conftest import ROOT

    pairs = [("demo", "default")]
    plain = resources_for(tmp_path, ROOT / "corpora")
    with _held_unless_judging(plain, pairs):
        assert plain["duckdb"].database in _HELD
    assert plain["duckdb"].database not in _HELD
    judging = resources_for(tmp_path, ROOT / "corpora", judge="local")
    with _held_unless_judging(judging, pairs):
        assert judging["duckdb"].database not in _HELD


def test_a_regrade_of_a_pair_whose_configuration_names_a_judge_holds_nothing(tmp_path):
    import shutil

    import yaml

    from assets.runs.runner import _held_unless_judging
    from assets.shared.resources import _HELD, resources_for
    from tests.conftest import ROOT

    corpora = tmp_path / "corpora"
    shutil.copytree(ROOT / "corpora", corpora)
    configs = yaml.safe_load((corpora / "configs.yaml").read_text())
    configs["configs"]["default"]["judge"] = "local-vllm"
    (corpora / "configs.yaml").write_text(yaml.safe_dump(configs))
    resources = resources_for(tmp_path / "wh", corpora)
    with _held_unless_judging(resources, [("demo", "small-chunks")]):
        assert resources["duckdb"].database in _HELD
    with _held_unless_judging(resources, [("demo", "small-chunks"), ("demo", "default")]):
        assert resources["duckdb"].database not in _HELD
