"""Replies a hostile or broken service sends: the key never reaches a row, a trickle never outlives its
deadline, a redirect is no answer, a lone surrogate is made valid text."""

from __future__ import annotations

import pytest

from ragpipe.answering.engines import make_engine
from ragpipe.answering.engines.secrets import REDACTED, KeyRefused, stored_body
from ragpipe.answering.run import answer_questions
from tests.chat_server import ChatServer
from tests.unit.answering.test_engines_http import Q

SECRET = "sk-echoed-back-314159"
ONE_TRY = {"attempts": 1, "base_delay": 0.01, "max_delay": 0.02}


def _ask(context, server, action: str, **settings):
    engine = make_engine(
        "openai", {"base_url": server.base_url, "model": "m", "api_key_env": "RAGPIPE_TEST_KEY", **ONE_TRY, **settings}
    )
    server.script = [action]
    return answer_questions(engine, [Q], context, "demo", "t", "openai", {}).iloc[0]


@pytest.mark.parametrize(
    "action, where",
    [("echo-list", "raw"), ("echo-escaped", "answer"), ("echo-nochoices", "raw")],
)
def test_a_key_echoed_in_any_shape_is_redacted_where_it_is_kept(context, monkeypatch, action, where):
    monkeypatch.setenv("RAGPIPE_TEST_KEY", SECRET)
    with ChatServer() as server:
        row = _ask(context, server, action)
    assert server.requests[0]["auth"] == f"Bearer {SECRET}"
    assert REDACTED in row[where]
    assert SECRET not in " ".join(str(v) for v in row.values)


def test_a_key_read_with_a_crlf_is_sent_stripped_and_never_kept(context, monkeypatch):
    monkeypatch.setenv("RAGPIPE_TEST_KEY", SECRET + "\r")
    with ChatServer() as server:
        row = _ask(context, server, "echo500")
    assert server.requests[0]["auth"] == f"Bearer {SECRET}"  # sent, without the \r that failed the header
    assert SECRET not in " ".join(str(v) for v in row.values) and REDACTED in row["error"]


def test_a_key_with_a_control_character_inside_is_refused_without_showing_it(monkeypatch):
    monkeypatch.setenv("RAGPIPE_TEST_KEY", "sk-abc\x01def-9999")
    with pytest.raises(KeyRefused) as refused:
        make_engine("openai", {"base_url": "http://127.0.0.1:9/v1", "model": "m", "api_key_env": "RAGPIPE_TEST_KEY"})
    assert "RAGPIPE_TEST_KEY" in str(refused.value) and "def-9999" not in str(refused.value)


def test_a_stored_body_is_redacted_after_decoding():
    escaped = '{"detail": "' + "".join(f"\\u{ord(c):04x}" for c in SECRET) + '"}'
    assert SECRET not in stored_body(escaped, [SECRET]) and REDACTED in stored_body(escaped, [SECRET])
    assert stored_body(f"<html>{SECRET}</html>", [SECRET]) == f"<html>{REDACTED}</html>"


def test_a_reply_that_trickles_in_is_cut_at_the_deadline(context):
    """A byte every 0.2 s keeps every read under the 1 s timeout; the whole reply would take about a
    minute. The attempt ends at its deadline, as a timeout."""
    with ChatServer() as server:
        row = _ask(context, server, "drip:0.2", timeout=1.0)
    assert row["answer"] == "" and "deadline" in row["error"]


def test_a_redirect_with_a_body_is_not_an_answer(context):
    with ChatServer() as server:
        row = _ask(context, server, "redirect")
    assert row["answer"] == "" and "HTTP 302" in row["error"] and "redirect" in row["error"]


def test_a_lone_surrogate_in_a_reply_becomes_a_replacement_character(context):
    with ChatServer() as server:
        row = _ask(context, server, "surrogate")
    assert row["error"] is None and "\ufffd" in row["answer"]
    row["answer"].encode("utf-8")  # storable
