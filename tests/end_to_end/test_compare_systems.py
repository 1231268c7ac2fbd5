"""Several systems per pair: answer sets kept apart, retrieval scored against qrels, differences with confidence."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import ir_measures
import numpy as np
import pandas as pd
import pytest
from dagster import DagsterInstance

from assets.runs.runner import regrade_pair, run_corpus
from assets.shared.resources import resources_for
from ragpipe.answering.answer_sets import remove_answer_set
from ragpipe.corpus.questions import Question
from ragpipe.history.delta import stored_delta
from ragpipe.retrieval.scoring import score_run
from ragpipe.scoring.attribution import attribute
from ragpipe.scoring.compare import bootstrap_interval, compare, mcnemar_exact
from tests.chat_server import ChatServer
from tests.commands import ragpipe as run_ragpipe
from tests.conftest import ROOT, warehouse_resources

HTTP = "http-rag"


def _run(warehouse: Path, instance, **override) -> list:
    project = {"engine_override": json.dumps(override)} if override else {}
    resources = resources_for(warehouse, ROOT / "corpora", **project)
    return run_corpus("demo", ["default"], instance=instance, resources=resources)


def _rows(warehouse: Path, sql: str) -> pd.DataFrame:
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        return conn.execute(sql).df()


@pytest.fixture(scope="module")
def two_systems(tmp_path_factory, demo_warehouse_once):
    """demo/default answered by the built-in engine (the session's pair, copied), then by a RAG service over
    HTTP on 127.0.0.1."""
    warehouse = tmp_path_factory.mktemp("two-systems") / "wh"
    shutil.copytree(demo_warehouse_once, warehouse)
    instance = DagsterInstance.ephemeral()
    first = _rows(warehouse, "SELECT * FROM answers WHERE answer_set = 'extractive' ORDER BY question_id")
    with ChatServer() as server:
        override = {"engine": "http", "settings": {"url": server.rag_url, "name": HTTP}, "concurrency": 2}
        results = _run(warehouse, instance, **override)
    assert all(r.success for r in results) or all(r.success for r in results[:1])
    return warehouse, instance, first


def test_two_engines_one_after_the_other_both_keep_answers_grades_and_scorecards(two_systems):
    warehouse, _, first = two_systems
    for table in ("answers", "grades", "scorecards"):
        held = _rows(warehouse, f"SELECT answer_set, count(*) AS n FROM {table} GROUP BY ALL ORDER BY ALL")
        assert set(held["answer_set"]) == {"extractive", HTTP}, table
    kept = _rows(warehouse, "SELECT * FROM answers WHERE answer_set = 'extractive' ORDER BY question_id")
    assert kept.drop(columns=["citations", "cited_chunks"]).equals(first.drop(columns=["citations", "cited_chunks"]))
    counts = _rows(warehouse, "SELECT answer_set, count(*) AS n FROM grades GROUP BY ALL")
    assert set(counts["n"]) == {31}


def test_rerunning_one_system_leaves_the_other_untouched(two_systems):
    warehouse, instance, _ = two_systems
    before = _rows(warehouse, f"SELECT * FROM answers WHERE answer_set = '{HTTP}' ORDER BY question_id")
    assert all(r.success for r in _run(warehouse, instance))  # the built-in engine again: resumed, nothing asked
    after = _rows(warehouse, f"SELECT * FROM answers WHERE answer_set = '{HTTP}' ORDER BY question_id")
    assert len(before) == 31 and after.drop(columns=["citations", "cited_chunks"]).equals(
        before.drop(columns=["citations", "cited_chunks"])
    )


def test_retrieval_is_scored_for_the_sets_that_used_it_and_exported_as_trec(two_systems):
    warehouse, _, _ = two_systems
    cards = _rows(warehouse, "SELECT * FROM scorecards ORDER BY answer_set").set_index("answer_set")
    assert cards.loc["extractive", "retrieval_questions"] == 26  # the demo's questions with golden documents
    assert pd.isna(cards.loc[HTTP, "doc_recall_at_k"])  # a service retrieves for itself: not scored on ours
    folder = warehouse / "trec" / "corpus=demo" / "config=default"
    run = list(ir_measures.read_trec_run(str(folder / "run-pages.trec")))
    qrels = list(ir_measures.read_trec_qrels(str(folder / "qrels-pages.trec")))
    hit = ir_measures.calc_aggregate([ir_measures.Success @ 5], qrels, run)[ir_measures.Success @ 5]
    assert cards.loc["extractive", "page_hit_at_k"] == pytest.approx(hit, abs=1e-4)
    per_question = _rows(warehouse, "SELECT * FROM retrieval WHERE config = 'default'")
    assert per_question["doc_mrr"].between(0, 1).all() and len(per_question) == 26


def test_the_retrieval_measures_on_a_run_whose_answers_are_known():
    questions = [
        Question(id="q1", text="a", kind="answerable", golden_docs=["lease"], golden_pages={"lease": [2]}),
        Question(id="q2", text="b", kind="answerable", golden_docs=["bill"], golden_pages={"bill": [1]}),
        Question(id="neg", text="c", kind="negative"),
    ]
    run = pd.DataFrame(
        [
            ["q1", 1, "stub#1", "stub", 1, 1, 9.0],
            ["q1", 2, "lease#2", "lease", 1, 2, 5.0],  # spans pages 1-2: the golden page, at rank 2
            ["q2", 1, "bill#1", "bill", 3, 3, 7.0],  # the golden document, another page
        ],
        columns=["question_id", "rank", "chunk_id", "doc_id", "page_start", "page_end", "score"],
    )
    scored = score_run(run, questions, top_k=1).set_index("question_id")
    assert list(scored.index) == ["q1", "q2"]  # the negative has no qrels: not scored
    assert scored.loc["q1", "doc_mrr"] == 0.5 and scored.loc["q2", "doc_mrr"] == 1.0
    assert scored.loc["q1", "doc_recall_at_k"] == 0.0 and scored.loc["q2", "doc_recall_at_k"] == 1.0
    assert scored.loc["q1", "page_hit_at_k"] == 0.0 and scored.loc["q2", "page_hit_at_k"] == 0.0
    assert not scored.loc["q1", "evidence_in_top_k"]
    assert score_run(run, questions, top_k=2).set_index("question_id").loc["q1", "evidence_in_top_k"]


def test_failure_attribution_separates_retrieval_from_generation():
    grades = pd.DataFrame(
        [
            ["c", "k", "s", qid, f"a-{qid}", "answerable", verdict, declined, False]
            for qid, verdict, declined in [
                ("found-wrong", "wrong", False),
                ("missed-wrong", "wrong", False),
                ("found-declined", "wrong", True),
                ("missed-declined", "wrong", True),
                ("right", "correct", False),
            ]
        ],
        columns=[
            "corpus",
            "config",
            "answer_set",
            "question_id",
            "answer_id",
            "kind",
            "verdict",
            "declined",
            "ungradable",
        ],
    )
    answers = pd.DataFrame({"answer_id": grades["answer_id"], "engine": "extractive"})
    retrieval = pd.DataFrame(
        {"question_id": grades["question_id"], "evidence_in_top_k": [True, False, True, False, True]}
    )
    got = dict(zip(*attribute(grades, answers, retrieval)[["question_id", "attribution"]].T.values))
    assert got == {
        "found-wrong": "generation miss",
        "missed-wrong": "retrieval miss",
        "found-declined": "declined with evidence retrieved",
        "missed-declined": "declined without evidence",
        "right": "correct",
    }
    service = attribute(grades, answers.assign(engine="http"), retrieval)
    assert set(service["attribution"]) == {"retrieval unknown"}


def _grades(verdicts: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "question_id": [f"q{i:02d}" for i in range(len(verdicts))],
            "verdict": ["correct" if v == "1" else "wrong" for v in verdicts],
            "declined": False,
            "rule": "r",
        }
    )


def test_compare_counts_wins_and_losses_with_an_exact_mcnemar_and_a_seeded_interval():
    a, b = _grades("1100000000"), _grades("1011100000")
    result = compare("A", a, "B", b)
    assert {k: result[k] for k in ("n", "a_correct", "b_correct", "wins", "losses", "ties")} == {
        "n": 10,
        "a_correct": 2,
        "b_correct": 4,
        "wins": 3,
        "losses": 1,
        "ties": 6,
    }
    assert result["diff"] == 0.2 and result["mcnemar_p"] == 0.625  # 2 x P(X <= 1), X ~ Bin(4, 1/2)
    assert result["ci_low"] < 0.2 < result["ci_high"] and compare("A", a, "B", b) == result  # seeded
    assert [f["question_id"] for f in result["flips"]] == ["q01", "q02", "q03", "q04"]
    assert mcnemar_exact(0, 0) == 1.0 and mcnemar_exact(10, 0) < 0.01


def test_the_bootstrap_interval_on_hand_worked_examples():
    """B right wherever A is wrong: every resample differs by 1. One win and one loss: a resample of two
    questions draws the win twice (diff +1, 1/4), the loss twice (-1, 1/4) or one of each (0, 1/2), so
    the 2.5th and 97.5th percentiles are -1 and +1."""
    assert bootstrap_interval(np.zeros(4), np.ones(4)) == (1.0, 1.0)
    assert bootstrap_interval(np.array([0.0, 1.0]), np.array([1.0, 0.0])) == (-1.0, 1.0)
    assert mcnemar_exact(1, 1) == 1.0 and mcnemar_exact(5, 0) == 0.0625  # 2 x (1/2)^5


def test_the_bootstrap_interval_covers_the_truth_when_there_is_no_difference():
    same = np.array([1.0, 0.0] * 50)
    low, high = bootstrap_interval(same, same)
    assert low == high == 0.0
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 2, 200).astype(float), rng.integers(0, 2, 200).astype(float)
    low, high = bootstrap_interval(a, b)
    assert low < b.mean() - a.mean() < high and high - low < 0.25


def test_ragpipe_compare_and_the_review_compare_view_on_two_real_systems(two_systems, tmp_path):
    warehouse, _, _ = two_systems
    env = {"RAGPIPE_WAREHOUSE": str(warehouse), "PATH": "/usr/bin:/bin"}
    done = run_ragpipe(env, "compare", "--corpus", "demo", "--a", "extractive", "--b", HTTP, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    keys = {"a", "b", "n", "a_correct", "b_correct", "wins", "losses", "ties", "diff", "ci_low", "ci_high", "mcnemar_p"}
    assert keys <= set(result) and result["n"] == 31 and result["wins"] + result["losses"] == len(result["flips"])
    assert all("#a-" in f["a_link"] for f in result["flips"])
    for first, second in (("extractive", HTTP), (HTTP, "extractive")):  # said in the order typed, A then B
        line = run_ragpipe(env, "compare", "--corpus", "demo", "--a", first, "--b", second, "--limit", "0").stdout
        assert line.startswith(f"A {first} vs B {second} on demo/default"), line
        assert "B - A" in line, line
    out = tmp_path / "compare.html"
    view = run_ragpipe(
        env, "review", "--corpus", "demo", "--answers", "extractive", "--compare", HTTP, "--out", str(out)
    )
    assert view.returncode == 0, view.stderr
    order = [flag for flag in __import__("re").findall(r'data-flip="(yes|no)"', out.read_text())]
    assert len(order) == 31 and order == sorted(order, key=lambda f: f != "yes")  # the flips first


def test_the_leaderboard_ranks_every_system_of_the_pair_and_the_review_shows_it(two_systems, tmp_path):
    warehouse, _, _ = two_systems
    env = {"RAGPIPE_WAREHOUSE": str(warehouse), "PATH": "/usr/bin:/bin"}
    done = run_ragpipe(env, "leaderboard", "--corpus", "demo", "--config", "default", "--json")
    assert done.returncode == 0, done.stderr
    systems = json.loads(done.stdout)["systems"]
    grades = _rows(
        warehouse,
        "SELECT answer_set, count(*) FILTER (verdict = 'correct') AS c, count(*) AS n "
        "FROM grades WHERE config = 'default' GROUP BY ALL",
    )
    expected = {s: (c, n) for s, c, n in grades.itertuples(index=False)}
    assert {r["system"]: (r["correct"], r["n"]) for r in systems} == expected
    assert [r["accuracy"] for r in systems] == sorted((r["accuracy"] for r in systems), reverse=True)
    best, other = systems
    pair = json.loads(
        run_ragpipe(env, "compare", "--corpus", "demo", "--a", best["system"], "--b", other["system"], "--json").stdout
    )
    assert (other["diff"], other["diff_low"], other["diff_high"]) == (pair["diff"], pair["ci_low"], pair["ci_high"])
    assert other["p_holm"] == pair["mcnemar_p"]  # one test: Holm leaves it as it is
    out = tmp_path / "review.html"
    view = run_ragpipe(env, "review", "--corpus", "demo", "--out", str(out))
    assert view.returncode == 0, view.stderr
    rows = __import__("re").findall(r'<tr data-system="([^"]+)"><td>(\d+)</td>', out.read_text())
    assert rows == [(r["system"], str(r["rank"])) for r in systems]


def test_scorecards_sum_the_tokens_an_endpoint_reports(two_systems):
    """The RAG service reports usage on every answer; the built-in engine reports none (n/a, never 0)."""
    warehouse, _, _ = two_systems
    sums = _rows(
        warehouse,
        "SELECT answer_set, count(prompt_tokens) AS reported, sum(prompt_tokens) AS p, sum(completion_tokens) AS c "
        "FROM answers WHERE config = 'default' GROUP BY 1",
    ).set_index("answer_set")
    cards = _rows(warehouse, "SELECT * FROM scorecards WHERE config = 'default'").set_index("answer_set")
    assert sums.loc[HTTP, "reported"] == 31 and sums.loc["extractive", "reported"] == 0
    http = cards.loc[HTTP]
    assert (http["usage_reported"], http["prompt_tokens"], http["completion_tokens"]) == tuple(sums.loc[HTTP])
    assert cards.loc["extractive", "usage_reported"] == 0 and pd.isna(cards.loc["extractive", "prompt_tokens"])
    assert http["total_latency_s"] > 0


def test_removing_an_answer_set_is_explicit_and_history_keeps_its_verdicts(two_systems):
    warehouse, _, _ = two_systems
    with duckdb.connect(str(warehouse / "ragpipe.duckdb")) as conn:
        history = conn.execute(f"SELECT count(*) FROM grade_history WHERE answer_set = '{HTTP}'").fetchall()[0][0]
        with pytest.raises(LookupError, match="holds no answer set 'nope'"):
            remove_answer_set(conn, warehouse, "demo", "default", "nope")
        removed = remove_answer_set(conn, warehouse, "demo", "default", HTTP)
        assert removed["answers"] == 31 and removed["grades"] == 31
        left = conn.execute("SELECT DISTINCT answer_set FROM answers").fetchall()
        kept = conn.execute(f"SELECT count(*) FROM grade_history WHERE answer_set = '{HTTP}'").fetchall()[0][0]
    assert left == [("extractive",)] and kept == history > 0
    parquet = pd.read_parquet(warehouse / "parquet" / "answers" / "corpus=demo" / "config=default" / "data.parquet")
    assert set(parquet["answer_set"]) == {"extractive"}
    # regraded, the pair's delta is of the answers it holds, not of every answer its history ever had
    resources = warehouse_resources(warehouse)
    assert regrade_pair("demo", "default", instance=DagsterInstance.ephemeral(), resources=resources).success
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        delta = stored_delta(conn, "demo", "default")
    assert (delta["compared"], delta["changed"]) == (31, 0)


def test_storing_one_set_keeps_the_others_but_not_their_answers_to_removed_questions(tmp_path):
    from ragpipe.answering.answer_row import AnswerRecord
    from ragpipe.answering.answer_sets import store_answer_sets

    def answers(answer_set: str, questions: list[str]) -> pd.DataFrame:
        return AnswerRecord.frame(
            AnswerRecord("c", "k", answer_set, q, f"{answer_set}-{q}", f"{answer_set} says {q}") for q in questions
        )

    with duckdb.connect(str(tmp_path / "w.duckdb")) as conn:
        store_answer_sets(conn, tmp_path, answers("a", ["q1", "q2"]), "c", "k", {"q1", "q2"})
        pair, _, pruned = store_answer_sets(conn, tmp_path, answers("b", ["q1", "q2"]), "c", "k", {"q1", "q2"})
        assert pruned == 0 and sorted(set(pair["answer_set"])) == ["a", "b"] and len(pair) == 4
        pair, _, pruned = store_answer_sets(conn, tmp_path, answers("b", ["q1"]), "c", "k", {"q1"})  # q2 is gone
    assert pruned == 1 and sorted(zip(pair["answer_set"], pair["question_id"])) == [("a", "q1"), ("b", "q1")]


def test_draws_kept_for_one_size_give_the_intervals_drawn_afresh():
    """The resampled indices are kept between calls of one size (a leaderboard draws them once); every
    interval is still the seeded bootstrap's, whatever size came before, above the kept size too, for
    real-valued and correct-or-not scores alike."""
    from ragpipe.scoring.compare import KEPT_DRAWS, RESAMPLES, SEED

    def afresh(a, b):
        picks = np.random.default_rng(SEED).integers(0, len(a), size=(RESAMPLES, len(a)))
        return tuple(float(x) for x in np.percentile(b[picks].mean(axis=1) - a[picks].mean(axis=1), [2.5, 97.5]))

    rng = np.random.default_rng(3)
    for n in (150, 150, 40, 150, KEPT_DRAWS // RESAMPLES + 1):
        a, b = rng.random(n), rng.integers(0, 2, n).astype(float)  # real-valued scores too (retrieval measures)
        assert bootstrap_interval(a, b) == afresh(a, b)
        correct = rng.integers(0, 2, n).astype(float)
        assert bootstrap_interval(correct, b) == afresh(correct, b)
