"""A service that echoes the API key (in a 401, a 500 or a 200 answer) never gets it stored or printed."""

from __future__ import annotations

import pytest

from ragpipe.answering.engines import make_engine
from ragpipe.answering.engines.retrying import RetryPolicy
from ragpipe.answering.engines.secrets import REDACTED
from ragpipe.answering.run import answer_questions
from tests.chat_server import ChatServer
from tests.commands import env_for, openai_run, ragpipe
from tests.unit.answering.test_engines_http import Q

SECRET = "sk-echoed-back-271828"
FAST = {"attempts": 2, "base_delay": 0.01, "max_delay": 0.02}


@pytest.mark.parametrize("action, where", [("echo401", "raw"), ("echo500", "error"), ("echo200", "answer")])
def test_the_echoed_key_is_redacted_at_the_engine(context, monkeypatch, action, where):
    monkeypatch.setenv("RAGPIPE_TEST_KEY", SECRET)
    engine = make_engine("openai", {"base_url": "", "model": "m", "api_key_env": "RAGPIPE_TEST_KEY", **FAST})
    with ChatServer(default=action) as server:
        engine.url = server.base_url + "/chat/completions"
        frame = answer_questions(engine, [Q], context, "demo", "t", "openai", {})
    assert server.requests[0]["auth"] == f"Bearer {SECRET}"  # the key was sent...
    row = frame.iloc[0]
    assert REDACTED in str(row[where])  # ...and what came back where it would be kept says so
    assert SECRET not in frame.to_json()


def test_a_negative_or_odd_retry_after_is_backoff_not_an_error():
    policy = RetryPolicy(attempts=3, base_delay=0.5, max_delay=8)
    assert [policy.delay(1, v) for v in ("-5", "nan", "inf", "soon", "2")] == [1.0, 1.0, 1.0, 1.0, 2.0]


def test_a_429_with_a_negative_retry_after_is_retried(context):
    engine = make_engine("openai", {"base_url": "", "model": "m", **FAST})
    with ChatServer() as server:
        engine.url = server.base_url + "/chat/completions"
        server.script = ["429:-1"]
        frame = answer_questions(engine, [Q], context, "demo", "t", "openai", {})
    assert frame["error"].isna().all() and len(server.requests) == 2


@pytest.mark.end_to_end
def test_no_file_or_output_of_a_run_holds_an_echoed_key(tmp_path):
    env = env_for(tmp_path, RAGPIPE_TEST_KEY=SECRET)
    with ChatServer(default="echo200") as server:
        server.script = ["echo401", "echo500", "echo500", "echo500", "echo500"]
        run = ragpipe(env, *openai_run(server.base_url))
    assert len(server.requests) >= 31 and all(r["auth"] == f"Bearer {SECRET}" for r in server.requests)
    assert SECRET not in run.stdout + run.stderr
    leaked = [str(p) for p in tmp_path.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]
    assert leaked == []
    assert any(REDACTED.encode() in p.read_bytes() for p in (tmp_path / "wh").rglob("*.parquet"))
