"""The benchmarks keep running: their synthetic rows are the answer table's, and a bench whose data is not
on the machine says so in a line and exits 0 (`.ci/run` runs `make bench-quick` on fresh clones, which
have no ../shared). Their figures are never asserted here: timings live in bench/, not in tests."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ragpipe.answering.answer_row import AnswerRecord
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))


def test_synthetic_answers_are_rows_of_the_answer_table(demo_questions):
    import pandas as pd
    from synthetic import synthetic_answers

    questions = pd.DataFrame(
        [{"corpus": "demo", "question_id": q.id, "text": q.text, "gold_answer": q.gold_answer} for q in demo_questions]
    )
    needles = pd.DataFrame(columns=["question_id", "needle", "status"])
    history = synthetic_answers(questions, needles, pd.DataFrame(columns=["question_id", "answer"]), 40)
    assert list(history.columns) == AnswerRecord.columns() and len(history) == 40
    assert history["answer_id"].is_unique


@pytest.mark.parametrize("bench", ["ingest", "retrieval", "regrade", "cluster"])
def test_a_bench_without_its_data_says_so_in_a_line_and_exits_0(bench, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "RAGPIPE_FINANCEBENCH_DIR": str(tmp_path / "absent"),
           "RAGPIPE_WAREHOUSE": str(tmp_path / "wh")}  # fmt: skip
    done = subprocess.run(
        [sys.executable, f"bench/{bench}.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (
        done.stdout.strip()
        == f"bench {bench}: skipped: FinanceBench data is absent (../shared/data/financebench or RAGPIPE_FINANCEBENCH_DIR)"
    )


def test_the_agreement_bench_without_labelled_sets_says_so_and_exits_0(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "RAGPIPE_SHARED_DATA": str(tmp_path / "absent")}
    done = subprocess.run(
        [sys.executable, "bench/agreement_sets.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"bench agreement_sets: skipped: no labelled set under {tmp_path / 'absent'}"


def test_the_agreement_baselines_are_the_documented_ones():
    """Containment normalizes as SQuAD does; the prefix matcher reads only how an answer opens."""
    from agreement_sets import CORRECT, INCORRECT, REFUSAL, containment, prefix_matcher

    assert containment(["The Beatles"], "It was beatles, of course.") == CORRECT  # article and case aside
    assert containment(["J.R.R. Tolkien"], "jrr tolkien wrote it") == CORRECT  # punctuation aside
    assert containment(["Paris"], "It was Lyon.") == INCORRECT
    assert prefix_matcher(["Paris"], "  I cannot help with Paris.") == REFUSAL
    assert prefix_matcher(["Paris"], "Paris. I cannot say more.") == CORRECT  # a refusal later is not an opening


def test_flips_count_the_verdicts_that_moved_toward_and_away_from_the_people():
    """Each answer: the person's class letter, then the grader's (`agreement --verdicts`)."""
    from agreement_sets import flips

    before = {"a": "CI", "b": "CC", "c": "IR", "d": "RR", "gone": "CC"}
    after = {"a": "CC", "b": "CI", "c": "IC", "d": "RR", "new": "II"}
    # a moved to the person's class, b away from it, c from one wrong class to another; d stayed
    assert flips(before, after) == {"compared": 4, "changed": 3, "toward": 1, "away": 1}
    assert flips(after, after)["changed"] == 0


def test_the_gate_names_every_verdict_the_golden_file_does_not_hold_and_each_kappa_that_falls():
    from agreement_sets import kappa_drops, undeclared

    golden = {"s": {"kappa": 0.8, "verdicts": {"a": "CC", "b": "II", "c": "RR"}}}
    same = {"s": {"kappa": 0.8, "verdicts": {"a": "CC", "b": "II", "c": "RR"}}}
    assert undeclared(golden, same) == [] and kappa_drops(golden, same) == []
    moved = {"s": {"kappa": 0.7, "verdicts": {"a": "CC", "b": "IC", "c": "RR", "d": "CC"}}, "t": {"verdicts": {}}}
    assert undeclared(golden, moved) == [
        "s: answer b: person I, grader I -> C",
        "s: answer d: person C, grader absent -> C",
        "t: no golden verdicts (python bench/agreement_sets.py --write)",
    ]
    assert kappa_drops(golden, moved) == ["s: kappa 0.8 -> 0.7"]


def test_the_gate_names_every_ablation_row_that_moved_and_the_table_shows_each_set():
    """`make agreement` runs `--gate --ablate`: what a check or reading earns or costs moves only declared."""
    from agreement_sets import ablation_markdown, ablation_moves

    golden = {
        "s": {
            "grader_version": "g-1",
            "ablation": {"voice": ["reading", 1, 1, 0, 0.86], "decline": ["check", 9, 8, 1, 0.4]},
        }
    }
    same = {
        "s": {
            "grader_version": "g-1",
            "ablation": {"voice": ["reading", 1, 1, 0, 0.86], "decline": ["check", 9, 8, 1, 0.4]},
        }
    }
    assert ablation_moves(golden, same) == []
    assert ablation_moves(golden, {"s": {"verdicts": {}}}) == []  # not measured this run: nothing to hold
    moved = {
        "s": {
            "ablation": {
                "voice": ["reading", 2, 1, 1, 0.85],
                "decline": ["check", 9, 8, 1, 0.4],
                "slot": ["reading", 0, 0, 0, 0.87],
            }
        }
    }
    assert ablation_moves(golden, moved) == [
        "s: slot off: changed, earned, cost, kappa absent -> 0, 0, 0, 0.87",
        "s: voice off: changed, earned, cost, kappa 1, 1, 0, 0.86 -> 2, 1, 1, 0.85",
    ]
    table = ablation_markdown(same).splitlines()
    assert "| `voice` (reading) | 1, 1, 0; 0.860 |" in table and "| `decline` | 9, 8, 1; 0.400 |" in table
