"""The UI guard's rules, request by request (assets/deploy/ui_guard.py); the live UI behind it is tested in
tests/reliability/test_ui_guard.py."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assets.deploy.ui_guard import allowed_hosts, only_queries, refusal

PORT = 3000


def _scope(method="GET", host=f"127.0.0.1:{PORT}", path="/", query=None, kind="http", **headers):
    pairs = [(b"host", host.encode())] + [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    scope = {"type": kind, "path": path, "headers": pairs, "query_string": urlencode(query or {}).encode()}
    return scope | ({"method": method} if kind == "http" else {})


@pytest.mark.parametrize("host", sorted(allowed_hosts(PORT)))
def test_the_uis_own_names_are_answered(host):
    assert refusal(_scope(host=host), PORT) is None
    assert refusal(_scope("POST", host, "/graphql", origin=f"http://{host}"), PORT) is None


@settings(max_examples=500)
@given(host=st.text(max_size=40))
def test_any_other_host_is_refused_for_every_method(host):
    """DNS rebinding: a name of the attacker's pointing at 127.0.0.1 reaches the port but names itself."""
    for method in ("GET", "POST"):
        refused = refusal(_scope(method, host), PORT)
        assert (refused is None) == (host in allowed_hosts(PORT)), host


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://attacker.example"},
        {"origin": "null"},  # a sandboxed frame or a file
        {"origin": f"http://127.0.0.1:{PORT + 1}"},  # another local server's page
        {"origin": f"https://127.0.0.1:{PORT}"},
        {"sec_fetch_site": "cross-site"},  # a browser that sent no Origin still says where it came from
        {"sec_fetch_site": "same-site"},
    ],
)
def test_a_request_that_can_change_state_from_another_page_is_refused(headers):
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        assert refusal(_scope(method, path="/graphql", **headers), PORT)[0] == 403
    assert refusal(_scope(kind="websocket", path="/graphql", **headers), PORT)[0] == 403
    assert refusal(_scope("GET", path="/", **headers), PORT) is None  # reading a page changes nothing


@pytest.mark.parametrize(
    "document, query",
    [
        ('mutation { stopSensor(id: "x") { __typename } }', False),
        ('query Q { version } mutation M { stopSensor(id: "x") { __typename } }', False),
        ('subscription { pipelineRunLogs(runId: "r") { __typename } }', False),
        ("mutation{launchRun}", False),
        ("{ version", False),  # does not parse: never guessed at
        ("", False),
        ("{ version }", True),
        ("query Named { version }", True),
    ],
)
def test_a_graphql_operation_sent_by_get_must_be_a_query(document, query):
    assert only_queries(document) is query
    refused = refusal(_scope(path="/graphql", query={"query": document}), PORT)
    assert (refused is None) is query and (query or refused[0] == 405)
    assert refusal(_scope("POST", path="/graphql", query={"query": document}), PORT) is None  # the UI's way
