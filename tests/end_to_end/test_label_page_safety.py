"""The labelling page never loses a click and takes labels from its own page only: clicks raced by page
loads, from threads and from a real browser, are every one a row; a POST from another site, with another
Host or without the page's token is a 403; malformed requests are the server's 400, and it goes on
serving; SIGTERM ends it as Ctrl-C does, with every stored label counted in the scorecards."""

from __future__ import annotations

import re
import shutil
import signal
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import duckdb
import pytest

from tests.browser import chromium, new_page
from tests.commands import env_for, start

pytestmark = pytest.mark.end_to_end  # `ragpipe label` in its own process

N = 16


def _serve(env, n=N):
    process = start(env, "label", "--corpus", "demo", "--config", "default", "--answers", "extractive",
                    "--n", str(n), "--seed", "5", "--labeller", "ana")  # fmt: skip
    line = process.stdout.readline()  # an event: the port listens once this line is out
    assert "http://127.0.0.1:" in line, line + process.stderr.read()
    return process, line.split(" at ")[1].split()[0]


def _stop(process, sig=signal.SIGINT):
    process.send_signal(sig)
    return process.communicate(timeout=600)


def _labels(warehouse) -> list[tuple]:
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        if not conn.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'human_labels'").fetchall()[0][0]:
            return []  # nobody has labelled in this warehouse yet
        return conn.execute("SELECT answer_id, label FROM human_labels ORDER BY answer_id").fetchall()


def _get(url: str, headers: dict | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _post(url: str, form: dict, headers: dict | None = None) -> int:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    request = urllib.request.Request(url + "label", urllib.parse.urlencode(form).encode(), headers or {})
    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=120) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def _page_state(url: str) -> tuple[str, list[str]]:
    """The form's token, and every answer id of the draw (each reachable as ?item=K)."""
    status, body = _get(url)
    token = re.search(r'name="token" value="([^"]+)"', body).group(1)
    total = int(re.search(r'<span id="total">(\d+)</span>', body).group(1))
    ids = [re.search(r'data-answer-id="([^"]+)"', _get(f"{url}?item={k}")[1]).group(1) for k in range(total)]
    return token, ids


@pytest.fixture()
def env(tmp_path, demo_warehouse_once):
    shutil.copytree(demo_warehouse_once, tmp_path / "wh")
    (tmp_path / "dh").mkdir()
    return env_for(tmp_path)


def test_clicks_raced_by_page_loads_from_threads_are_every_one_stored(env, tmp_path):
    process, url = _serve(env)
    try:
        token, ids = _page_state(url)
        clicks = [{"answer_id": a, "label": "correct", "token": token} for a in ids]
        with ThreadPoolExecutor(8) as pool:  # every click beside a page load and a progress read
            loads = [pool.submit(_get, url) for _ in clicks] + [pool.submit(_get, url + "progress") for _ in clicks]
            posted = list(pool.map(lambda form: _post(url, form), clicks))
            loaded = [f.result()[0] for f in loads]
        assert posted == [303] * len(clicks) and set(loaded) == {200}
    finally:
        out, err = _stop(process)
    assert process.returncode == 0, err
    assert _labels(tmp_path / "wh") == sorted((a, "correct") for a in ids)
    assert f"{len(ids)} of {len(ids)} labelled" in out


def test_clicks_and_loads_at_once_from_a_real_browser_are_every_one_stored(env, tmp_path):
    process, url = _serve(env)
    try:
        token, ids = _page_state(url)
        with chromium() as browser:
            context = browser.new_context()
            tabs = [new_page(context) for _ in ids]
            loaders = [new_page(context) for _ in range(4)]
            for k, tab in enumerate(tabs):
                tab.goto(f"{url}?item={k}")
            for k, tab in enumerate(tabs):  # each click sent without waiting, a page load beside it
                tab.click("#refusal", no_wait_after=True)
                loaders[k % len(loaders)].goto(url, wait_until="commit")
            for tab in tabs:
                # the click's answer: the page again, at the next open answer, saying how the last one went
                tab.wait_for_url(re.compile(re.escape(url) + r"(\?last=\d+)?$"))
                assert tab.locator("#error").count() == 0
            tabs[0].reload()
            assert tabs[0].locator("#labelled").inner_text() == str(len(ids)) and tabs[0].locator("#done").count()
    finally:
        _stop(process)
    assert _labels(tmp_path / "wh") == sorted((a, "refusal") for a in ids)


class _Elsewhere(BaseHTTPRequestHandler):
    """Another site's page, on another port: a form that posts a label to the labelling page at once."""

    target = ""

    def do_GET(self):
        answer_id, token = self.target_form
        body = (f'<form id="f" method="post" action="{self.target}label"><input name="answer_id" value="{answer_id}">'
                f'<input name="label" value="incorrect"><input name="token" value="{token}"></form>'
                "<script>document.getElementById('f').submit()</script>").encode()  # fmt: skip
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_only_the_page_itself_can_store_a_label(env, tmp_path):
    process, url = _serve(env, n=3)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    try:
        token, ids = _page_state(url)
        form = {"answer_id": ids[0], "label": "correct", "token": token}
        assert _post(url, {**form, "token": "guessed"}) == 403
        assert _post(url, {k: v for k, v in form.items() if k != "token"}) == 403
        assert _post(url, form, {"Origin": "http://evil.example"}) == 403
        assert _post(url, form, {"Host": f"evil.example:{port}"}) == 403  # a DNS name pointed at 127.0.0.1
        assert _get(url, {"Host": "evil.example"})[0] == 403
        tunnel = _get(url, {"Host": "127.0.0.1:9999"})  # a forwarded port: the browser names its own
        assert tunnel[0] == 403 and "it names the host '127.0.0.1:9999'" in tunnel[1], tunnel
        assert f"forward the same port number (ssh -L {port}:127.0.0.1:{port}" in tunnel[1]
        # a real browser on another site's page, whose form posts to the labelling page (even knowing the token)
        _Elsewhere.target, _Elsewhere.target_form = url, (ids[1], token)
        elsewhere = ThreadingHTTPServer(("127.0.0.1", 0), _Elsewhere)
        threading.Thread(target=elsewhere.serve_forever, daemon=True).start()
        try:
            with chromium() as browser:
                tab = new_page(browser)
                with tab.expect_response(lambda r: r.url.endswith("/label")) as answered:
                    tab.goto(f"http://127.0.0.1:{elsewhere.server_port}/")
                assert answered.value.status == 403
        finally:
            elsewhere.shutdown()
        assert _labels(tmp_path / "wh") == []
        assert _post(url, form) == 303  # the page itself still can
    finally:
        _stop(process)
    assert _labels(tmp_path / "wh") == [(ids[0], "correct")]


def _raw(url: str, request: bytes) -> bytes:
    host, port = url.split("//")[1].strip("/").split(":")
    with socket.create_connection((host, int(port)), timeout=120) as conn:
        conn.sendall(request)
        conn.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    return data


def test_malformed_requests_are_answered_and_the_page_goes_on(env):
    process, url = _serve(env, n=3)
    host = url.split("//")[1].strip("/")
    try:
        for length in (b"abc", b"-1", b"99999999999999999999"):
            said = _raw(url, b"POST /label HTTP/1.1\r\nHost: " + host.encode() + b"\r\nContent-Length: " + length
                        + b"\r\n\r\nanswer_id=x")  # fmt: skip
            assert said.startswith(b"HTTP/1.1 4"), (length, said[:200])
        assert _get(url + "?item=%C2%B2")[0] == 200  # not a number: the next open answer
        assert _get(url + "?item=99999999999999999999")[0] == 200
        big = {"answer_id": "x", "label": "correct", "note": "n" * 200_000}
        assert _post(url, big) == 413
        assert _get(url)[0] == 200  # still serving
    finally:
        _stop(process)
    assert process.returncode == 0


def test_sigterm_ends_the_page_as_ctrl_c_does(env, tmp_path):
    process, url = _serve(env, n=4)
    token, ids = _page_state(url)
    assert _post(url, {"answer_id": ids[0], "label": "correct", "token": token}) == 303
    assert _post(url, {"answer_id": ids[1], "label": "incorrect", "token": token}) == 303
    out, err = _stop(process, signal.SIGTERM)
    assert process.returncode == 0, err
    assert "2 of 4 labelled; scorecards of demo/default recomputed" in out
    with duckdb.connect(str(tmp_path / "wh" / "ragpipe.duckdb"), read_only=True) as conn:
        assert conn.execute("SELECT labels FROM scorecards WHERE answer_set = 'extractive'").fetchall() == [(2,)]


def _read_until(stream, said: str, bound: float = 600) -> str:
    """Lines of `stream` up to the one holding `said` (an event: the process wrote it); the bound only
    catches a process that never says it."""
    found: list[str] = []

    def read():
        for line in stream:
            found.append(line)
            if said in line:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(bound)
    seen = "".join(found)
    assert said in seen, f"never said {said!r}: {seen}"
    return seen


def test_a_click_waiting_for_the_write_lock_when_the_page_stops_is_stored_and_answered_before_the_recompute(
    env, tmp_path
):
    from ragpipe.warehouse.lock import writing

    process, url = _serve(env, n=4)
    token, ids = _page_state(url)
    assert _post(url, {"answer_id": ids[0], "label": "correct", "token": token}) == 303
    with ThreadPoolExecutor(1) as pool:
        with writing(tmp_path / "wh", "a second writer"):  # another writer holds the warehouse
            click = pool.submit(_post, url, {"answer_id": ids[1], "label": "incorrect", "token": token})
            assert "`a second writer`" in _read_until(process.stderr, "a click waits to be stored")
            process.send_signal(signal.SIGTERM)
            _read_until(process.stderr, "stopping once the 1 click(s) being stored are stored")
            # nothing is answered while the lock is held: uvicorn's 5 s graceful timeout once answered a 500
            # here and stored the label after the recompute
            with pytest.raises(TimeoutError):
                click.result(timeout=8)
        assert click.result(timeout=600) == 303  # stored, and answered as any click
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    assert "2 of 4 labelled; scorecards of demo/default recomputed" in out
    with duckdb.connect(str(tmp_path / "wh" / "ragpipe.duckdb"), read_only=True) as conn:
        assert conn.execute("SELECT labels FROM scorecards WHERE answer_set = 'extractive'").fetchall() == [(2,)]
