"""The Dagster UI that `make dev` starts takes orders from its own page on this machine only: real requests
against the real webserver and daemon (assets/deploy/dev_ui.py behind assets/deploy/ui_guard.py). Before the
guard, `GET /graphql?query=mutation{stopSensor(...)}` with no token stopped `after_grading`, and a request
naming `Host: attacker.example` and `Origin: http://attacker.example` was answered."""

from __future__ import annotations

import os
import socket
import time

import httpx
import pytest

from tests.commands import dev_log_tail, env_for, free_port, start_dagster_dev

SENSORS = """{ workspaceOrError { ... on Workspace { locationEntries { locationOrLoadError {
  ... on RepositoryLocation { repositories { sensors { name sensorState { id status } } } } } } } } }"""


def _sensors(client: httpx.Client, base: str) -> dict[str, tuple[str, str]]:
    """Each sensor's (state id, status), asked as the UI asks: a POST from its own page."""
    reply = client.post(f"{base}/graphql", json={"query": SENSORS}, headers={"Origin": base})
    reply.raise_for_status()
    entries = reply.json()["data"]["workspaceOrError"]["locationEntries"]
    sensors = [s for e in entries for r in e["locationOrLoadError"]["repositories"] for s in r["sensors"]]
    return {s["name"]: (s["sensorState"]["id"], s["sensorState"]["status"]) for s in sensors}


def _stop(state_id: str) -> str:
    return f'mutation {{ stopSensor(id: "{state_id}") {{ __typename }} }}'


def _handshake(port: int, host: str, origin: str) -> str:
    """The status line a WebSocket handshake to /graphql gets (the graphql-ws protocol the UI speaks)."""
    request = (
        f"GET /graphql HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        f"Sec-WebSocket-Protocol: graphql-ws\r\nOrigin: {origin}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request.encode())
        return sock.recv(4096).decode("latin-1").split("\r\n", 1)[0]


@pytest.mark.end_to_end
def test_the_ui_refuses_other_sites_and_get_mutations_and_still_serves_its_own_page(tmp_path):
    port = free_port()
    env = {**env_for(tmp_path), "DAGSTER_HOME": str(tmp_path / "dh")}
    (tmp_path / "dh").mkdir()
    dev, base = start_dagster_dev(env, port), f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(timeout=60) as client:
            deadline = time.monotonic() + 600  # a bound for a hang: a loaded machine starts it slowly
            while time.monotonic() < deadline and dev.poll() is None:
                try:
                    if client.get(f"{base}/server_info").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                time.sleep(0.5)
            assert dev.poll() is None, dev_log_tail(env)
            sensor_id, status = _sensors(client, base)["after_grading"]
            assert status == "RUNNING"

            # a GET mutation (what an <img> sends) is refused and changes nothing
            refused = client.get(f"{base}/graphql", params={"query": _stop(sensor_id)})
            assert refused.status_code == 405 and "POST only" in refused.text
            assert _sensors(client, base)["after_grading"][1] == "RUNNING"
            # another site's page, by POST: refused, nothing changed
            for origin in ("http://attacker.example", "null", f"http://localhost:{port + 1}"):
                posted = client.post(f"{base}/graphql", json={"query": _stop(sensor_id)}, headers={"Origin": origin})
                assert posted.status_code == 403, (origin, posted.text)
            assert _sensors(client, base)["after_grading"][1] == "RUNNING"
            # DNS rebinding: the attacker's name, pointing here, is answered by nothing
            for path in ("/server_info", "/", "/graphql?query={version}"):
                rebound = client.get(f"{base}{path}", headers={"Host": f"attacker.example:{port}"})
                assert rebound.status_code == 403, path
            hijack = _handshake(port, f"127.0.0.1:{port}", "http://attacker.example")
            assert " 403 " in hijack, hijack
            assert " 101 " in _handshake(port, f"127.0.0.1:{port}", base)  # the UI's own live updates

            # the UI's own page works through the guard: the page, a query by GET, and the same mutation by POST
            assert client.get(f"{base}/").status_code == 200 and "<html" in client.get(f"{base}/").text.lower()
            assert client.get(f"{base}/graphql", params={"query": "{ version }"}).json()["data"]["version"]
            own = client.post(f"{base}/graphql", json={"query": _stop(sensor_id)}, headers={"Origin": base})
            assert own.status_code == 200 and "errors" not in own.json(), own.text
            assert _sensors(client, base)["after_grading"][1] == "STOPPED"
    finally:
        os.killpg(dev.pid, 9)
        dev.wait(timeout=30)
