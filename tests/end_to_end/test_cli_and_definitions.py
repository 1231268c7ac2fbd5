"""The user's commands, run as a user runs them: subprocesses on a scratch warehouse."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from tests.commands import ragpipe
from tests.conftest import ROOT

BIN = os.path.dirname(sys.executable)
FIELDS = {
    "corpus",
    "config",
    "total",
    "correct",
    "partial",
    "wrong",
    "overall_pct",
    "answerable_total",
    "answerable_correct",
    "negatives_total",
    "negatives_declined",
    "median_latency_ms",
    "wrong_money",
    "money_bar",
    "grader_version",
}


@pytest.fixture()
def env(tmp_path):
    (tmp_path / "dh").mkdir()
    return {**os.environ, "RAGPIPE_WAREHOUSE": str(tmp_path / "wh"), "DAGSTER_HOME": str(tmp_path / "dh")}


@pytest.mark.end_to_end
def test_run_all_skips_absent_data_then_scorecard_json(env, tmp_path):
    (tmp_path / "empty").mkdir()  # a folder that exists but lacks the adapter's files is skipped too, saying what
    env = {**env, "RAGPIPE_FINANCEBENCH_DIR": str(tmp_path / "none"), "RAGPIPE_ARAGOG_DIR": str(tmp_path / "empty")}
    out = ragpipe(env, "run", "--all", "--config", "default", check=True)
    assert "ZERO-WRONG-MONEY" in out.stdout and "demo" in out.stdout
    assert "skipping corpus 'financebench'" in out.stdout and "does not exist" in out.stdout
    assert f"skipping corpus 'aragog': its data folder {tmp_path / 'empty'} lacks benchmark.json" in out.stdout
    cards = json.loads(ragpipe(env, "scorecard", "--json", check=True).stdout)
    assert len(cards) == 1 and FIELDS <= set(cards[0])
    assert cards[0]["corpus"] == "demo" and cards[0]["config"] == "default" and cards[0]["total"] >= 24
    assert cards[0]["money_bar"] in {"PASS", "FAIL"}
    # the run is recorded in the Dagster instance under DAGSTER_HOME, for the UI
    assert (tmp_path / "dh" / "history" / "runs.db").exists()
    from dagster import DagsterInstance

    with DagsterInstance.local_temp(str(tmp_path / "dh")) as instance:  # the UI's run list says which command
        runs = instance.get_runs()
        assert runs and {r.tags.get("ragpipe/command") for r in runs} == {"ragpipe run"}, [r.tags for r in runs]
    filtered = json.loads(ragpipe(env, "scorecard", "--corpus", "nope", "--json", check=True).stdout)
    assert filtered == []
    narrow, wide = (ragpipe(env, "scorecard", *flag, check=True).stdout for flag in ([], ["--wide"]))
    assert max(len(line.rstrip()) for line in narrow.splitlines()) <= 100 and "…" not in narrow
    c = cards[0]
    assert "demo/default" in narrow and "median ms" not in narrow
    assert f"{c['correct']}/{c['partial']}/{c['wrong']}/{c['ungradable']}" in narrow  # adds up to the total
    assert c["correct"] + c["partial"] + c["wrong"] + c["ungradable"] == c["total"]
    assert "median ms" in wide and "R@k/hit@k" in wide and "…" not in wide


def test_corpus_stats_json(env):
    stats = json.loads(ragpipe(env, "corpus", "stats", "demo", "--json", check=True).stdout)
    assert {
        k: stats[k]
        for k in ("documents", "documents_failed", "questions", "answerable", "negative", "ambiguous", "ungradable")
    } == {
        "documents": 11,
        "documents_failed": 1,
        "questions": 31,
        "answerable": 24,
        "negative": 5,
        "ambiguous": 2,
        "ungradable": 0,
    }
    assert stats["pages"] == 12 and stats["needles_kept"] > 20 and stats["needles_rejected"] > 0


def test_unknown_corpus_is_refused(env):
    out = ragpipe(env, "run", "--corpus", "atlantis", check=False)
    assert out.returncode != 0 and "atlantis" in out.stderr + out.stdout


def test_scorecard_without_a_warehouse_says_what_to_do(env):
    out = ragpipe(env, "scorecard", check=False)
    assert out.returncode == 1 and "ragpipe run" in out.stdout


def test_dagster_definitions_validate(env):
    out = subprocess.run(
        [f"{BIN}/dagster", "definitions", "validate", "-w", "workspace.yaml"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    assert "passed validation" in out.stdout + out.stderr


def test_definitions_load_with_descriptions_and_lineage():
    from assets.definitions import built

    defs = built()

    graph = defs.resolve_asset_graph()
    keys = {k.to_user_string() for k in graph.get_all_asset_keys()}
    assert keys == {
        "documents",
        "pages",
        "failed_documents",
        "questions",
        "question_problems",
        "needles",
        "chunks",
        "chunk_index",
        "retrieval",
        "answers",
        "rule_verdicts",
        "judgments",
        "grades",
        "scorecards",
        "agreement",
        "grade_delta",
        "review_report",
    }
    for key in graph.get_all_asset_keys():
        assert graph.get(key).description, key
        # a partly materialized asset reads as a failure unless its description says which partitions fill
        assert "`make run` fills" in graph.get(key).description and "not a failure" in graph.get(key).description
    parents = {
        p.to_user_string()
        for p in graph.get(next(k for k in graph.get_all_asset_keys() if k.to_user_string() == "grades")).parent_keys
    }
    # graded once: grades read the stored rule verdicts and the judge's judgments, never the needles
    assert parents == {"rule_verdicts", "judgments", "answers", "questions"}
    scorecard_parents = {
        p.to_user_string()
        for p in graph.get(
            next(k for k in graph.get_all_asset_keys() if k.to_user_string() == "scorecards")
        ).parent_keys
    }
    assert "retrieval" in scorecard_parents  # failure attribution joins verdicts with retrieval


def test_library_does_not_import_dagster():
    code = (
        "import sys, importlib, pkgutil, ragpipe\n"
        "for m in pkgutil.walk_packages(ragpipe.__path__, 'ragpipe.'): importlib.import_module(m.name)\n"
        "print(any(n == 'dagster' or n.startswith('dagster.') for n in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_grade_command_needs_no_corpus_or_warehouse(env, tmp_path):
    questions = tmp_path / "q.jsonl"
    answers = tmp_path / "a.jsonl"
    questions.write_text(
        '{"id": "due", "question": "What is the ending balance?", "kind": "answerable", "gold_answer": "$42.99", "money_key": "$42.99"}\n'
        '{"id": "pet", "question": "What does pet insurance cost?", "kind": "negative", "gold_answer": "absent"}\n'
    )
    answers.write_text(
        '{"question_id": "due", "answer": "The amount due is $26.99. This is indicated in Source 3, where the ending balance is listed as $42.99, but the amount due is specified as $26.99. Therefore the amount due is $26.99."}\n'
        '{"question_id": "due", "answer": "The ending balance is $42.99 [1].", "citations": ["bill"]}\n'
        '{"question_id": "pet", "answer": "This question is not directly addressed in the provided sources."}\n'
        '{"question_id": "ghost", "answer": "x"}\n'
    )
    out = ragpipe(env, "grade", "--questions", str(questions), "--answers", str(answers), "--json", check=True)
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["question_id"], r["verdict"], r["declined"], r["money_question"], r["failure"]) for r in rows] == [
        ("due", "wrong", False, True, "wrong money figure"),
        ("due", "correct", False, True, None),
        ("pet", "correct", True, False, None),
    ]
    assert all(r["rule"] and r["grader_version"].startswith("g") for r in rows)
    assert "unknown question 'ghost'" in out.stderr
    assert not (tmp_path / "wh").exists()  # no warehouse was created
    bad_rules = tmp_path / "rules.yaml"
    bad_rules.write_text("declines: {phrases: []}\n")
    refused = ragpipe(env, "grade", "--questions", str(questions), "--answers", str(answers), "--rules", str(bad_rules))
    assert refused.returncode == 2 and "declines.phrases" in refused.stdout


@pytest.mark.end_to_end
def test_make_dev_takes_port_and_says_the_url_last_or_names_a_taken_port(tmp_path):
    """`make dev PORT=N`: the UI on N, its URL printed once it answers and the last line while both run (the
    daemon's INFO lines once followed it within seconds); a taken port or a port that is no number is
    refused, named."""
    import signal
    import socket
    import time

    from dagster import DagsterInstance

    from tests.commands import free_port

    env = {**os.environ, "DAGSTER_HOME": str(tmp_path / "dh"), "RAGPIPE_WAREHOUSE": str(tmp_path / "wh")}
    (tmp_path / "dh").mkdir()
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        taken = held.getsockname()[1]
        refused = subprocess.run(
            ["make", "-s", "dev", f"PORT={taken}"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
        )
    assert refused.returncode != 0 and f"port {taken} on 127.0.0.1 is taken" in refused.stderr
    odd = subprocess.run(
        [f"{BIN}/python", "-m", "assets.deploy.dev_ui"], cwd=ROOT, env={**env, "PORT": "\u00b2"},
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert (
        odd.returncode == 2
        and odd.stderr.startswith("PORT='\u00b2': give a port number")
        and "Traceback" not in odd.stderr
    )
    subprocess.run([f"{BIN}/python", "-m", "assets.deploy.instance"], cwd=ROOT, env=env, check=True, timeout=600)
    port = free_port()
    ui = subprocess.Popen(
        [f"{BIN}/python", "-m", "assets.deploy.dev_ui"], cwd=ROOT, env={**env, "PORT": str(port)},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        line = ""
        for line in ui.stdout:  # an event: the line the wrapper prints once the UI answers
            if line.startswith("Dagster UI:"):
                break
        assert line.strip().startswith(f"Dagster UI: http://127.0.0.1:{port}")
        deadline = time.monotonic() + 300  # only catches a hang: the event is the daemon's first heartbeat
        with DagsterInstance.from_config(str(tmp_path / "dh")) as instance:
            while not instance.get_daemon_heartbeats() and time.monotonic() < deadline:
                time.sleep(0.5)
            assert instance.get_daemon_heartbeats(), "the daemon never beat"
    finally:
        # what the test checks is read; how `dagster dev` shuts down is not under test: asked first, and
        # stopped if it has not gone within a minute (on a loaded machine it once outlasted ten)
        os.killpg(ui.pid, signal.SIGTERM)
        try:
            after = ui.communicate(timeout=60)[0]
        except subprocess.TimeoutExpired:
            os.killpg(ui.pid, signal.SIGKILL)
            after = ui.communicate(timeout=60)[0]
    plain = re.sub(r"\x1b\[[0-9;]*m", "", after)  # Dagster colours its levels
    said = [x for x in plain.splitlines() if " - INFO - " in x and "dagster.daemon" in x]
    assert not said, said
