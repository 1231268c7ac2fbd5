"""All nine (corpus, configuration) pairs through Dagster, on the real third-party data."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from dagster import DagsterInstance

from assets.partitions import CONFIGS
from assets.runner import run_corpus
from ragpipe.corpus_stats import corpus_stats
from tests.conftest import SHARED
from tests.test_pipeline import _resources


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    if not (SHARED / "financebench").exists() or not (SHARED / "aragog").exists():
        pytest.skip(f"{SHARED} is absent: third-party corpora live in ../shared/data beside the project")
    folder = tmp_path_factory.mktemp("shared-warehouse")
    instance = DagsterInstance.ephemeral()
    for corpus in ("demo", "aragog", "financebench"):
        assert all(r.success for r in run_corpus(corpus, CONFIGS, instance=instance, resources=_resources(folder)))
    return folder


def test_nine_pairs_nine_scorecards(warehouse):
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        cards = conn.execute("SELECT * FROM scorecards ORDER BY corpus, config").df()
        assert len(cards) == 9 and set(cards["config"]) == {"default", "small-chunks", "wide-k"}
        for card in cards.to_dict("records"):
            questions = conn.execute("SELECT count(*) FROM questions WHERE corpus = ?", [card["corpus"]]).fetchone()[0]
            assert card["total"] == questions
            assert card["correct"] + card["partial"] + card["wrong"] + card["ungradable"] == card["total"]


def test_corpus_stats_on_the_warehouse(warehouse):
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        fb = corpus_stats(conn, "financebench")
        ar = corpus_stats(conn, "aragog")
    assert (fb["documents"], fb["answerable"], fb["negative"], fb["ambiguous"]) == (90, 129, 4, 17)
    assert (ar["documents"], ar["answerable"], ar["negative"], ar["ambiguous"]) == (15, 98, 9, 0)
    for stats in (fb, ar):
        assert stats["needles_kept"] > 0 and stats["needles_rejected"] > 0 and stats["question_problems"] == 0
        assert stats["ungradable"] < stats["questions"] / 2


def test_financebench_negatives_are_declined_and_kinds_graded_by_their_rule(warehouse):
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        rules = conn.execute(
            "SELECT kind, rule FROM grades WHERE corpus = 'financebench' AND config = 'default'"
        ).df()
    assert set(rules.loc[rules["kind"] == "negative", "rule"]) <= {"negative.declined", "negative.not_declined"}
    assert all(r.startswith("ambiguous.") for r in rules.loc[rules["kind"] == "ambiguous", "rule"])
