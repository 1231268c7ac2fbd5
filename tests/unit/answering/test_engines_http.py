"""LLM and RAG-service engines against a real HTTP server on 127.0.0.1 that fails on demand."""

from __future__ import annotations

import json
import os
import signal
import socket
import time
from urllib.parse import urlsplit

import duckdb
import pytest

from ragpipe.answering.engines import make_engine
from ragpipe.answering.run import answer_questions
from ragpipe.corpus.questions import Question
from tests.chat_server import ChatServer
from tests.commands import openai_run, start

FAST = {"attempts": 4, "base_delay": 0.01, "max_delay": 0.05}
Q = Question(id="rent", text="How much is the monthly rent under the lease?", kind="answerable")


def openai(server, **kw):
    return make_engine(
        "openai", {"base_url": server.base_url, "model": "test-model", "api_key_env": "RAGPIPE_TEST_KEY", **FAST, **kw}
    )


def test_chat_answer_with_citations_and_the_key_in_the_header(context, monkeypatch):
    monkeypatch.setenv("RAGPIPE_TEST_KEY", "sk-test-header")
    with ChatServer() as server:
        a = openai(server).answer(Q, context)
    assert (
        a.answer.endswith("[1]")
        and a.citations == ["apartment-lease"]
        and a.cited_chunks[0].startswith("apartment-lease#")
    )
    assert server.requests[0]["auth"] == "Bearer sk-test-header"
    words = sum(len(str(m["content"]).split()) for m in server.requests[0]["body"]["messages"])
    assert (a.prompt_tokens, a.completion_tokens) == (words, len(a.answer.split()))  # the server's usage, as sent


def test_tokens_are_what_the_endpoint_reports_or_none():
    from ragpipe.answering.engines.usage import usage_of

    assert usage_of({"usage": {"prompt_tokens": 812, "completion_tokens": 0, "total_tokens": 812}}) == (812, 0)
    for said in ({}, {"usage": None}, {"usage": {"prompt_tokens": "812"}}, {"usage": {"prompt_tokens": -1}}, []):
        assert usage_of(said) == (None, None), said
    assert usage_of({"usage": {"prompt_tokens": True, "completion_tokens": 4.0}}) == (None, None)
    assert usage_of({"usage": {"prompt_tokens": 10**23, "completion_tokens": 2**63 - 1}}) == (None, 2**63 - 1)


def test_an_answer_without_usage_records_no_tokens(context, monkeypatch):
    monkeypatch.setenv("RAGPIPE_TEST_KEY", "sk-test")
    with ChatServer(default="no-usage") as server:
        frame = answer_questions(openai(server), [Q], context, "demo", "t", "openai:test-model", {})
    assert frame[["prompt_tokens", "completion_tokens"]].isna().all(axis=None)


@pytest.mark.parametrize("sent", [b"", b'{"messages": [{"role": "user", "content": "Question: '])
def test_a_request_whose_client_died_before_its_body_was_whole_was_not_asked(sent):
    """What a killed worker leaves: the headers sent, the body not (or not all of it). The test server must not
    count it as a question served: read as an empty body, it was served as the question "" (most likely the
    32nd text the Celery killed-worker test once read in a corpus of 31)."""
    with ChatServer() as server:
        where = urlsplit(server.base_url)
        with socket.create_connection((where.hostname, where.port)) as client:
            head = b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 120\r\n\r\n"
            client.sendall(head + sent)
        deadline = time.monotonic() + 300  # a bound for a hang, not a speed
        while server.cut_short == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.cut_short == 1 and server.requests == [] and server.served == []


def test_500_429_and_a_dropped_connection_are_retried(context):
    with ChatServer() as server:
        server.script = ["500", "429:0.01", "drop"]
        a = openai(server).answer(Q, context)
    assert len(server.requests) == 4 and a.answer


def test_retry_after_is_honoured():
    from ragpipe.answering.engines.retrying import RetryPolicy

    policy = RetryPolicy(attempts=3, base_delay=0.5, max_delay=8)
    assert policy.delay(0, "3") == 3 and policy.delay(0, "999") == 8 and policy.delay(2, None) == 2.0


def test_giving_up_is_an_error_row_and_the_run_goes_on(context):
    with ChatServer(default="500") as server:
        frame = answer_questions(
            openai(server), [Q, Q.model_copy(update={"id": "again"})], context, "demo", "t", "openai", {}
        )
    assert len(frame) == 2 and frame["error"].str.contains("gave up after 4 attempts: HTTP 500").all()
    assert len(server.requests) == 8


def test_malformed_responses_keep_the_raw_body(context):
    with ChatServer(default="malformed") as server:
        frame = answer_questions(openai(server), [Q], context, "demo", "t", "openai", {})
    assert "not JSON" in frame["error"].iloc[0] and frame["raw"].iloc[0] == "<html>this is not json"


def test_slow_responses_time_out(context):
    with ChatServer(default="slow:1.0") as server:
        frame = answer_questions(openai(server, timeout=0.2, attempts=2), [Q], context, "demo", "t", "openai", {})
    assert "timeout" in frame["error"].iloc[0]


def test_concurrency_is_bounded(context):
    questions = [Q.model_copy(update={"id": f"q{i}"}) for i in range(12)]
    with ChatServer(default="slow:0.15") as server:
        frame = answer_questions(openai(server), questions, context, "demo", "t", "openai", {}, concurrency=4)
    assert frame["error"].isna().all() and 2 <= server.max_in_flight <= 4


def test_http_service_contract(context):
    with ChatServer() as server:
        engine = make_engine("http", {"url": server.rag_url, **FAST})
        a = engine.answer(Q, context)
        server.script = ["malformed"]
        frame = answer_questions(engine, [Q], context, "demo", "t", "http", {})
    assert a.answer == "The answer to rent is in the lease." and a.citations == ["apartment-lease"]
    assert (a.prompt_tokens, a.completion_tokens) == (len(Q.text.split()), 9)
    assert server.requests[0]["question"] == Q.text
    assert "not JSON" in frame["error"].iloc[0]


SECRET = "sk-never-persist-31337"


def _run(env, port_url, extra=()):
    return start(env, *openai_run(port_url, "--concurrency", "2", *extra))


@pytest.mark.end_to_end
def test_killed_run_resumes_without_losing_or_repeating_answers_and_never_stores_the_key(tmp_path):
    env = {
        **os.environ,
        "RAGPIPE_WAREHOUSE": str(tmp_path / "wh"),
        "DAGSTER_HOME": str(tmp_path / "dh"),
        "RAGPIPE_TEST_KEY": SECRET,
    }
    db = tmp_path / "wh" / "ragpipe.duckdb"
    with ChatServer(default="slow:0.2") as server:
        first = _run(env, server.base_url)
        deadline = time.time() + 600  # a bound for a hang, not a speed
        while len(server.served) < 8 and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(0.1)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
        assert first.returncode == -signal.SIGKILL
        # shard processes log each answer to their own JSONL file (the warehouse has one writer)
        lines = [
            json.loads(line)
            for f in (tmp_path / "wh" / "answer_log").rglob("*.jsonl")
            for line in f.read_text().splitlines()
            if line.endswith("}")
        ]
        logged = {r["question_id"] for r in lines if r["error"] is None}
        assert 1 <= len(logged) < 31
        server.served.clear()
        second = _run(env, server.base_url)
        out, err = second.communicate(timeout=300)
        assert second.returncode == 0, err
        asked_again = set(server.served)
    with duckdb.connect(str(db), read_only=True) as conn:
        answers = conn.execute(
            "SELECT question_id, error, engine_settings FROM answers WHERE answer_set = 'openai:test-model'"
        ).df()
        texts = dict(conn.execute("SELECT question_id, text FROM questions").fetchall())
        absorbed = {r[0] for r in conn.execute("SELECT question_id FROM answer_log WHERE error IS NULL").fetchall()}
    assert logged <= absorbed and not list((tmp_path / "wh" / "answer_log").rglob("*.jsonl"))  # one writer took them in
    assert len(answers) == 31 and answers["question_id"].is_unique and answers["error"].isna().all()
    assert not {texts[q] for q in logged} & asked_again  # nothing persisted was asked twice
    assert json.loads(answers["engine_settings"].iloc[0])["api_key_env"] == "RAGPIPE_TEST_KEY"
    leaked = [str(p) for p in tmp_path.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]
    assert leaked == []


def test_import_engine_reads_the_generic_format(context, tmp_path):
    path = tmp_path / "mine.jsonl"
    path.write_text(
        '{"question_id": "rent", "answer": "Monthly rent is $2,150 [1].", "citations": ["apartment-lease"], "latency_ms": 812,'
        ' "usage": {"prompt_tokens": 1500, "completion_tokens": 12}}\n'
        "not json\n"
    )
    engine = make_engine("import", {"path": str(path)})
    frame = answer_questions(
        engine, [Q, Q.model_copy(update={"id": "other"})], context, "demo", "t", engine.answer_set, {}
    )
    rows = frame.set_index("question_id")
    assert rows.loc["rent", "answer"] == "Monthly rent is $2,150 [1]." and rows.loc["rent", "latency_ms"] == 812
    assert list(rows.loc["rent", "citations"]) == ["apartment-lease"] and engine.answer_set == "import:mine"
    assert (rows.loc["rent", "prompt_tokens"], rows.loc["rent", "completion_tokens"]) == (1500, 12)
    assert "no answer for question 'other'" in rows.loc["other", "error"]
    assert [(p.line, p.field) for p in engine.problems] == [(2, "(line)")]


def test_the_retrieving_engines_are_those_whose_class_says_so():
    from ragpipe.answering.engines import ENGINES
    from ragpipe.answering.retrieving import RETRIEVING_ENGINES

    assert RETRIEVING_ENGINES == {n for n, cls in ENGINES.items() if getattr(cls, "uses_pair_retrieval", False)}
