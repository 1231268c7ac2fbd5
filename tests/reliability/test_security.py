"""The tool does only what it was asked: SQL cannot write or reach outside the warehouse, keys are
never stored or printed, and nothing listens on a port (but `dagster dev`, on 127.0.0.1)."""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

import duckdb
import pytest

from ragpipe.warehouse.sql import SqlRefused, run_query
from tests.chat_server import ChatServer
from tests.commands import dev_log_tail, env_for, free_port, openai_run, ragpipe, start, start_dagster_dev


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory, demo_warehouse_once):
    """tmp/wh: a copy of the session's demo warehouse (`env_for(tmp)` points `ragpipe` at it)."""
    tmp = tmp_path_factory.mktemp("security")
    shutil.copytree(demo_warehouse_once, tmp / "wh")
    return tmp


def _digest(db: Path) -> str:
    return hashlib.sha256(db.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO grades SELECT * FROM grades",
        "UPDATE grades SET verdict = 'correct'",
        "DELETE FROM grade_history",
        "DROP TABLE grades",
        "CREATE TABLE x AS SELECT 1",
        "COPY grades TO '{tmp}/stolen.csv'",
        "ATTACH '{tmp}/other.duckdb' AS other",
        "INSTALL httpfs",
        "LOAD httpfs",
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM read_text('/etc/hostname')",
        "SELECT * FROM read_parquet('{tmp}/outside.parquet')",
        "SELECT * FROM glob('/etc/*')",
        "SET enable_external_access = true",
    ],
)
def test_sql_cannot_write_attach_install_or_read_outside(warehouse, tmp_path, statement):
    db = warehouse / "wh" / "ragpipe.duckdb"
    duckdb.connect().execute(f"COPY (SELECT 42 AS x) TO '{tmp_path}/outside.parquet'")
    before = _digest(db)
    with pytest.raises((SqlRefused, duckdb.Error)):
        run_query(db, statement.format(tmp=tmp_path))
    assert _digest(db) == before
    assert not (tmp_path / "stolen.csv").exists() and not (tmp_path / "other.duckdb").exists()


def test_the_cli_says_refused_and_changes_nothing(warehouse):
    db = warehouse / "wh" / "ragpipe.duckdb"
    before = _digest(db)
    out = ragpipe(env_for(warehouse), "sql", "DELETE FROM grades", timeout=60)
    assert out.returncode == 2 and "refused" in out.stdout + out.stderr
    assert _digest(db) == before


@pytest.mark.parametrize("fmt", [(), ("--csv",), ("--json",)])
def test_an_answers_control_sequences_never_reach_the_terminal(warehouse, fmt):
    """A stored text that would retitle the window and clear the screen is printed as its escapes."""
    query = "SELECT 'ok' || chr(27) || ']0;PWNED' || chr(7) || chr(27) || '[2J' || chr(155) AS answer"
    out = ragpipe(env_for(warehouse), "sql", query, *fmt, timeout=60)
    assert out.returncode == 0, out.stderr
    assert not any(c in out.stdout for c in "\x1b\x07\x9b") and "PWNED" in out.stdout


def test_control_sequences_in_question_ids_and_answers_never_reach_the_terminal_through_any_line(tmp_path):
    """`ragpipe grade` prints question ids from anyone's files in its table and its problem lines: every
    command prints through one console and one `say` that escape them (ragpipe/inputs/terminal.py)."""
    questions, answers = tmp_path / "q.yaml", tmp_path / "a.jsonl"
    questions.write_text(
        'questions:\n  - id: "q1\\e]0;PWNED\\a\\e[2J"\n    text: "What is the amount due?"\n    gold_answer: "$48.75"\n'
    )
    answers.write_text(
        '{"question_id": "q1\\u001b]0;PWNED\\u0007\\u001b[2J", "answer": "It is $10.00 \\u001b[2J"}\n'
        '{"question_id": "zz\\u009b2J", "answer": "x"}\n'
    )
    out = ragpipe(env_for(tmp_path), "grade", "--questions", str(questions), "--answers", str(answers), timeout=120)
    assert out.returncode != 0 or out.stdout, out.stderr
    said = out.stdout + out.stderr
    assert "PWNED" in said and "unknown question" in said and "money.wrong_figure" in said, said
    assert not any(c in said for c in "\x1b\x07\x9b"), repr(said)


SECRET = "sk-reliability-never-persist-4242"


def _listening(pids: set[int]) -> list[str]:
    """Listening TCP sockets (local address) owned by `pids`."""
    inodes = set()
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            parts = line.split()
            if parts[3] == "0A" and parts[9] in inodes:  # 0A: LISTEN
                found.append(parts[1])
    return found


def _tree(root: int) -> set[int]:
    pids, changed = {root}, True
    while changed:
        changed = False
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid, ppid = int(stat.parent.name), int(fields[1])
            if ppid in pids and pid not in pids:
                pids.add(pid)
                changed = True
    return pids


@pytest.mark.end_to_end
def test_a_sharded_multiprocess_run_stores_and_prints_no_key_and_listens_on_no_port(tmp_path):
    env = env_for(tmp_path, RAGPIPE_TEST_KEY=SECRET)
    seen: list[str] = []
    with ChatServer() as server:
        process = start(env, *openai_run(server.base_url, "--shards", "2", "--processes"))
        while process.poll() is None:  # watch the whole process tree while it runs
            seen += _listening(_tree(process.pid))
            time.sleep(0.05)
        out, err = process.communicate()
        assert process.returncode == 0, err[-2000:]
        assert {r["auth"] for r in server.requests} == {f"Bearer {SECRET}"}  # the key was used...
    assert seen == []  # nothing listened (the engine server above is the test's, not ragpipe's)
    review = ragpipe(env, "review", "--corpus", "demo", "--out", str(tmp_path / "wh" / "review.html"), timeout=120)
    assert review.returncode == 0
    assert SECRET not in out + err + review.stdout + review.stderr  # ...never printed...
    leaked = [str(p) for p in tmp_path.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]
    assert leaked == []  # ...and never written: warehouse, Parquet, shard logs, reports, run history


@pytest.mark.end_to_end
def test_dagster_dev_listens_on_localhost_only(tmp_path):
    port = free_port()
    env = {**env_for(tmp_path), "DAGSTER_HOME": str(tmp_path / "dh")}
    (tmp_path / "dh").mkdir()
    dev = start_dagster_dev(env, port)
    try:
        deadline, addresses = time.time() + 600, []  # a bound for a hang: a loaded machine starts it slowly
        while time.time() < deadline and not addresses and dev.poll() is None:
            addresses = [a for a in _listening(_tree(dev.pid)) if a.endswith(f":{port:04X}")]
            time.sleep(0.5)
        assert addresses, f"make dev never listened (exit {dev.poll()}):\n{dev_log_tail(env)}"
        assert all(a.startswith(("0100007F:", "00000000000000000000000001000000:")) for a in addresses), addresses
    finally:
        os.killpg(dev.pid, 9)
        dev.wait(timeout=30)
