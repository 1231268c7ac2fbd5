"""The whole asset graph, materialized in-process by Dagster on the demo corpus."""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from dagster import DagsterInstance

from assets.runs.runner import run_corpus
from ragpipe.scoring.scorecard import build_scorecard
from tests.conftest import warehouse_resources


def _resources(warehouse: Path) -> dict:
    return warehouse_resources(warehouse)


@pytest.fixture(scope="module")
def materialized(tmp_path_factory) -> tuple[Path, list]:
    folder = tmp_path_factory.mktemp("warehouse")
    results = run_corpus(
        "demo", ["default", "small-chunks"], instance=DagsterInstance.ephemeral(), resources=_resources(folder)
    )
    assert all(r.success for r in results)
    return folder, results


@pytest.fixture(scope="module")
def warehouse(materialized) -> Path:
    return materialized[0]


def _sql(warehouse: Path, query: str) -> pd.DataFrame:
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        return conn.execute(query).df()


def test_every_stage_is_a_table_and_a_parquet_file(warehouse):
    for table in [
        "documents",
        "pages",
        "failed_documents",
        "questions",
        "needles",
        "chunks",
        "answers",
        "grades",
        "scorecards",
    ]:
        assert len(_sql(warehouse, f"SELECT * FROM {table}")) > 0, table
        assert list((warehouse / "parquet" / table).rglob("data.parquet")), table
    assert (warehouse / "index" / "demo" / "default" / "chunk_ids.json").exists()
    assert len(list((warehouse / "corpora" / "demo").glob("*.pdf"))) == 11


def test_scorecard_numbers_agree_with_the_grades_table(warehouse):
    cards = _sql(warehouse, "SELECT * FROM scorecards ORDER BY config")
    assert list(cards["config"]) == ["default", "small-chunks"]
    for card in cards.to_dict("records"):
        g = _sql(warehouse, f"SELECT * FROM grades WHERE corpus='demo' AND config='{card['config']}'")
        assert card["total"] == len(g) == len(_sql(warehouse, "SELECT * FROM questions"))
        assert card["correct"] == (g["verdict"] == "correct").sum()
        assert card["partial"] == (g["verdict"] == "partial").sum()
        assert card["wrong"] == (g["verdict"] == "wrong").sum()
        assert card["graded"] == card["total"] - g["ungradable"].sum()
        assert card["overall_pct"] == round(100 * card["correct"] / card["graded"], 1)
        assert card["answerable_total"] == (g["kind"] == "answerable").sum()
        assert card["answerable_correct"] == ((g["kind"] == "answerable") & (g["verdict"] == "correct")).sum()
        assert card["negatives_declined"] == ((g["kind"] == "negative") & g["declined"]).sum()
        assert card["wrong_money"] == (g["failure"] == "wrong money figure").sum()
        assert card["money_bar"] == ("PASS" if card["wrong_money"] == 0 else "FAIL")
        assert card["documents"] == 11 and card["documents_failed"] == 1
        assert set(g["grader_version"]) == {card["grader_version"]}


def test_answers_carry_citations_latency_and_settings(warehouse):
    answers = _sql(warehouse, "SELECT * FROM answers WHERE config = 'default'")
    assert (answers["engine"] == "extractive").all()
    assert answers["latency_ms"].notna().all()
    assert answers["engine_settings"].str.contains('"top_k": 5').all()
    cited = answers[answers["citations"].map(len) > 0]
    assert len(cited) >= 20
    documents = set(_sql(warehouse, "SELECT doc_id FROM documents")["doc_id"])
    assert all(set(c) <= documents for c in cited["citations"])


def test_configurations_are_kept_apart(warehouse):
    chunks = _sql(
        warehouse, "SELECT config, count(*) AS n, max(words) AS w FROM chunks GROUP BY config ORDER BY config"
    )
    assert list(chunks["config"]) == ["default", "small-chunks"]
    assert chunks["n"].iloc[1] > chunks["n"].iloc[0] and chunks["w"].iloc[1] <= 80


def test_rematerializing_replaces_rows_and_grades_are_byte_identical(warehouse):
    def grade_hash():
        frame = _sql(warehouse, "SELECT * FROM grades ORDER BY config, answer_set, question_id")
        return hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest(), len(frame)

    before = grade_hash()
    results = run_corpus(
        "demo", ["default", "small-chunks"], instance=DagsterInstance.ephemeral(), resources=_resources(warehouse)
    )
    assert all(r.success for r in results)
    assert grade_hash() == before
    (documents,) = [
        e for e in results[0].get_asset_materialization_events() if e.asset_key.to_user_string() == "documents"
    ]
    metadata = documents.materialization.metadata
    assert (metadata["pdfs_parsed"].value, metadata["pdfs_reused"].value) == (0, 11)  # unchanged PDFs are not parsed
    for result in results[1:]:  # unchanged pages: no pair is re-chunked or re-indexed
        events = {
            e.asset_key.to_user_string(): e.materialization.metadata for e in result.get_asset_materialization_events()
        }
        assert events["chunks"]["rechunked"].value is False and events["chunk_index"]["rebuilt"].value is False


def test_an_index_built_from_other_chunks_is_rebuilt_and_one_cut_alike_is_copied(tmp_path):
    from ragpipe.retrieval.fingerprint import stored_fingerprint

    resources = _resources(tmp_path)
    first = run_corpus("demo", ["default"], instance=DagsterInstance.ephemeral(), resources=resources)
    with duckdb.connect(str(tmp_path / "ragpipe.duckdb"), read_only=True) as conn:
        before = stored_fingerprint(conn, "chunks", "demo", "default")
    (tmp_path / "index" / "demo" / "default" / "chunks.fingerprint").write_text("stale")
    again = run_corpus("demo", ["default"], instance=DagsterInstance.ephemeral(), resources=resources)
    events = {
        e.asset_key.to_user_string(): e.materialization.metadata for e in again[1].get_asset_materialization_events()
    }
    assert all(r.success for r in first + again)
    assert events["chunks"]["rechunked"].value is False  # same pages and knobs
    assert events["chunk_index"]["rebuilt"].value is True  # the saved index says it was built from other chunks
    with duckdb.connect(str(tmp_path / "ragpipe.duckdb"), read_only=True) as conn:
        assert stored_fingerprint(conn, "chunks", "demo", "default") == before

    # wide-k cuts the same chunks (it differs in top_k): its index is default's, copied, not built again
    wide = run_corpus("demo", ["wide-k"], instance=DagsterInstance.ephemeral(), resources=resources)
    assert all(r.success for r in wide)
    events = {
        e.asset_key.to_user_string(): e.materialization.metadata for e in wide[1].get_asset_materialization_events()
    }
    assert events["chunk_index"]["copied_from"].value == "default" and events["chunk_index"]["rebuilt"].value is False
    index = tmp_path / "index" / "demo"
    assert sorted(p.name for p in (index / "wide-k").iterdir()) == sorted(p.name for p in (index / "default").iterdir())
    assert all(p.read_bytes() == (index / "default" / p.name).read_bytes() for p in (index / "wide-k").iterdir())


def test_library_scorecard_matches_the_stored_one(warehouse):
    g = _sql(warehouse, "SELECT * FROM grades WHERE config='default'")
    a = _sql(warehouse, "SELECT * FROM answers WHERE config='default'")
    stored = _sql(warehouse, "SELECT * FROM scorecards WHERE config='default'").to_dict("records")[0]
    card = build_scorecard(g, a, 11, 1)
    assert {k: card[k] for k in ("total", "correct", "wrong", "overall_pct", "wrong_money")} == {
        k: stored[k] for k in ("total", "correct", "wrong", "overall_pct", "wrong_money")
    }


def test_zero_wrong_money_check_reports_the_grades_table(materialized):
    warehouse, results = materialized
    wrong = _sql(warehouse, "SELECT count(*) AS n FROM grades WHERE failure = 'wrong money figure'")["n"].iloc[0]
    evaluations = [e for r in results for e in r.get_asset_check_evaluations() if e.check_name == "zero_wrong_money"]
    assert evaluations
    assert evaluations[-1].passed == (wrong == 0)
    assert evaluations[-1].metadata["wrong_money"].value == wrong


def test_wrong_money_blocks_its_answer_set_alone(demo_warehouse):
    """An answer set that asserts a wrong money figure fails the ZERO-WRONG-MONEY check: grades are
    written (every verdict stays queryable), and the set's scorecard is stored marked blocked. The bar
    is per system: the run itself does not fail, and no other set is held back (tests/reliability/
    test_names_and_bars.py runs two sets side by side)."""
    from assets.runs.runner import failed_money_checks, regrade_pair

    instance = DagsterInstance.ephemeral()
    tmp_path = demo_warehouse
    resources = _resources(tmp_path)
    assert not _sql(tmp_path, "SELECT * FROM scorecards")["blocked"].any()
    with duckdb.connect(str(tmp_path / "ragpipe.duckdb")) as conn:
        conn.execute("UPDATE answers SET answer = 'You owe $450,658 [1]' WHERE question_id = 'tax-owed'")
    result = regrade_pair("demo", "default", instance=instance, resources=resources)
    assert result.success
    (failure,) = failed_money_checks([result])
    assert failure["offending_questions"] == ["tax-owed"] and failure["wrong_money"] == 1
    assert failure["blocked_sets"] == ["extractive"]
    grade = _sql(tmp_path, "SELECT verdict, failure, wrong_money FROM grades WHERE question_id = 'tax-owed'").iloc[0]
    assert (grade["verdict"], grade["failure"], list(grade["wrong_money"])) == (
        "wrong",
        "wrong money figure",
        ["$450,658"],
    )
    card = _sql(tmp_path, "SELECT money_bar, wrong_money, blocked FROM scorecards").iloc[0]
    assert (card["money_bar"], card["wrong_money"], bool(card["blocked"])) == ("FAIL", 1, True)
