"""SIGKILL during ingest, during answering and during grading: the next run finishes the work and
the warehouse opens whole, with no half-written table and no duplicate history."""

from __future__ import annotations

import signal
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import duckdb
import pytest

from tests.chat_server import ChatServer
from tests.commands import env_for, openai_run, ragpipe, start
from tests.reliability.pdfs import corpora_with, plain_text_pdf

DOCS, PAGES = 24, 50


@pytest.fixture(scope="module")
def big_corpus(tmp_path_factory) -> Path:
    """24 filings of 50 pages: ingest takes seconds, long enough to be killed in the middle of."""
    root = tmp_path_factory.mktemp("crash-corpus")
    pdfs = root / "pdfs"
    pdfs.mkdir()
    for d in range(DOCS):
        plain_text_pdf(
            pdfs / f"filing-{d:02d}.pdf",
            [
                "\n".join(
                    f"Line {line}: filing {d} page {p} reports revenue of ${(d + 1) * 1000 + p:,} thousand."
                    for line in range(30)
                )
                for p in range(PAGES)
            ],
        )
    questions = "questions:\n" + "".join(
        # a yes or no, not an amount: the stand-in model's answers are arbitrary, and a wrong amount of money
        # would fail the pair's money bar (exit 1), which is not what these tests are about
        f"  - id: q{d:02d}\n    text: Does filing {d} report revenue on page 7?\n    kind: answerable\n"
        f"    gold_answer: Yes, ${(d + 1) * 1000 + 7:,} thousand.\n    golden_docs: [filing-{d:02d}]\n"
        for d in range(DOCS)
    )
    return corpora_with(root, "big", pdfs, questions)


def _started(home: Path, prefix: str) -> bool:
    """Has a step whose key starts with `prefix` started? Read from the runs' event-log files, read-only:
    opening a DagsterInstance here would create and migrate its storage, racing the run that is doing so."""
    for path in (home / "history" / "runs").glob("*.db"):
        try:
            with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
                hit = conn.execute(
                    "SELECT 1 FROM event_logs WHERE dagster_event_type = 'STEP_START' AND step_key LIKE ? LIMIT 1",
                    (prefix + "%",),
                ).fetchone()
        except sqlite3.Error:  # the run is still creating this file: look again on the next poll
            continue
        if hit:
            return True
    return False


def _kill_when(process, home: Path, prefix: str, extra=lambda: True, timeout: float = 300) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline and process.poll() is None:
        if _started(home, prefix) and extra():
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
            assert process.returncode == -signal.SIGKILL, f"{prefix}: the run ended before it could be killed"
            return
        time.sleep(0.02)
    raise AssertionError(f"step {prefix} never started (exit {process.poll()}): {process.stderr.read()[-2000:]}")


def _whole(db: Path) -> None:
    """The warehouse opens, and every table holds whole partitions: nothing half-written, nothing twice."""
    if not db.exists():
        return
    with duckdb.connect(str(db), read_only=True) as conn:
        tables = {r[0] for r in conn.execute("SELECT table_name FROM information_schema.tables").fetchall()}
        if {"documents", "pages"} <= tables:
            torn = conn.execute(
                "SELECT count(*) FROM documents d LEFT JOIN (SELECT corpus, doc_id, count(*) AS n FROM pages GROUP BY ALL) p "
                "USING (corpus, doc_id) WHERE coalesce(p.n, 0) != d.pages"
            ).fetchall()[0][0]
            assert torn == 0
        if "answers" in tables:
            assert (
                conn.execute(
                    "SELECT count(*) FROM (SELECT corpus, config, answer_set, question_id FROM answers GROUP BY ALL HAVING count(*) > 1)"
                ).fetchall()[0][0]
                == 0
            )
        if {"grades", "answers"} <= tables:
            assert (
                conn.execute(
                    "SELECT count(*) FROM (SELECT corpus, config, count(*) AS n FROM grades GROUP BY ALL) g "
                    "JOIN (SELECT corpus, config, count(*) AS n FROM answers GROUP BY ALL) a USING (corpus, config) WHERE g.n != a.n"
                ).fetchall()[0][0]
                == 0
            )
        if "grade_history" in tables:
            assert (
                conn.execute(
                    "SELECT count(*) FROM (SELECT answer_id, grader_version, answer_sha FROM grade_history GROUP BY ALL HAVING count(*) > 1)"
                ).fetchall()[0][0]
                == 0
            )


@pytest.mark.end_to_end
def test_killed_during_ingest_answering_and_grading_the_next_run_finishes(big_corpus, tmp_path):
    env = env_for(tmp_path, RAGPIPE_CORPORA=str(big_corpus), RAGPIPE_TEST_KEY="k")
    home, db = tmp_path / "dh", tmp_path / "wh" / "ragpipe.duckdb"
    with ChatServer(default="slow:0.15") as server:
        args = openai_run(server.base_url, "--concurrency", "2", corpus="big")
        _kill_when(start(env, *args), home, "ingest")
        _whole(db)
        _kill_when(start(env, *args), home, "answers.answer_shard", extra=lambda: len(server.served) >= 4)
        _whole(db)
        # killed while the shards grade: a kill once the storing step has started races that step's own
        # process, which may finish storing (and take its folder away) after the run that started it is gone
        _kill_when(start(env, *args), home, "rule_verdicts.grade_shard")
        _whole(db)
        left = sorted(p.relative_to(tmp_path) for p in (tmp_path / "wh" / "shards").rglob("run=*"))
        assert left, "the killed runs left their shard exchange folders"
        server.served.clear()
        final = ragpipe(env, *args)
        assert final.returncode == 0, final.stderr[-3000:]
    _whole(db)
    with duckdb.connect(str(db), read_only=True) as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchall()[0][0] == DOCS
        assert conn.execute("SELECT count(*) FROM pages").fetchall()[0][0] == DOCS * PAGES
        assert (
            conn.execute("SELECT count(*) FROM answers WHERE answer_set = 'openai:test-model'").fetchall()[0][0] == DOCS
        )
        assert conn.execute("SELECT count(*) FROM grades").fetchall()[0][0] == DOCS
        logged = {
            r[0] for r in conn.execute("SELECT DISTINCT question_id FROM answer_log WHERE error IS NULL").fetchall()
        }
    assert len(logged) == DOCS and len(server.served) == 0  # the last run re-asked nothing: every answer was logged
    # the last run took away the folders the killed ones left (their processes are gone, whatever their status says)
    assert list((tmp_path / "wh" / "shards").rglob("run=*")) == []


@pytest.mark.end_to_end
def test_judge_replies_that_arrived_before_a_kill_are_kept_and_not_paid_for_again(tmp_path, demo_warehouse):
    """SIGKILL of `ragpipe regrade --judge` after five replies arrived: the next run stores those five and
    asks the judge only about the rest (it once stored none and paid for every one again)."""
    import json

    from tests.end_to_end.test_judge import judged_env

    with ChatServer(default="slow:120:judge") as server:
        server.script = ["judge"] * 5  # five quick replies, then replies that take minutes: killed while waiting
        env = judged_env(tmp_path, server, demo_warehouse)
        process = start(env, "regrade", "--judge", "scripted")
        logs = demo_warehouse / "judgment_log"

        def five_logged() -> bool:
            lines = [line for p in logs.glob("*.jsonl") for line in p.read_text().splitlines()] if logs.is_dir() else []
            return len(lines) >= 5

        _kill_when(process, Path(env["DAGSTER_HOME"]), "judgments", five_logged)
        logged = [json.loads(line) for p in logs.glob("*.jsonl") for line in p.read_text().splitlines()]
        assert len(logged) == 5 and {row["verdict"] for row in logged} <= {"correct", "incorrect", "declined"}
        server.default, asked_before = "judge", len(server.requests)
        again = ragpipe(env, "regrade", "--judge", "scripted")
        asked_again = len(server.requests) - asked_before
    assert again.returncode == 0, again.stdout + again.stderr
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        stored = conn.execute("SELECT input_key FROM judgments").fetchall()
    assert {row["input_key"] for row in logged} <= {key for (key,) in stored}
    assert asked_again == len(stored) - 5 > 0  # the five that arrived are not asked again
    assert not list(logs.glob("*.jsonl"))  # stored, and the logs of steps that are over removed
    _whole(demo_warehouse / "ragpipe.duckdb")
