"""The labelling page (`ragpipe label`): one answer at a time, the person's verdict stored at each click.

`ragpipe label` serves it on 127.0.0.1 only, from Python's standard HTTP server: no framework, no
file or address beyond the page itself, nothing fetched from the network. Per answer it shows the
question, the gold answer, the answer with the grader's highlights (review/annotate.py) and verdict,
buttons correct / incorrect / refusal (keys c, i, r), a note and the progress. A click is one POST
that writes one `human_labels` row under the warehouse's write lock, then the page moves to the next
answer nobody labelled: a killed server loses nothing, and a restarted one resumes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from jinja2 import Environment, FileSystemLoader, select_autoescape

from ragpipe.labels.record import LABELS, HumanLabelRecord

_TEMPLATES = Environment(loader=FileSystemLoader(Path(__file__).parent), autoescape=select_autoescape(["j2"]))


@dataclass
class Item:
    """One answer of the sample, as the page shows it."""

    answer_id: str
    question_id: str
    question: str
    gold_answer: str
    runs: list  # review/annotate.py Runs: the answer with the grader's marks
    verdict: str
    rule: str
    input_sha: str


@dataclass
class Session:
    """What the server needs: the sample's items, who labels, and two functions over the warehouse."""

    corpus: str
    config: str
    answer_set: str
    labeller: str
    items: list[Item]
    labelled: Callable[[], dict[str, str]]  # answer_id -> latest current label
    store: Callable[[HumanLabelRecord], None]  # writes one label at once

    def next_open(self, done: dict[str, str]) -> int | None:
        return next((i for i, item in enumerate(self.items) if item.answer_id not in done), None)


def render(session: Session, index: int | None, done: dict[str, str]) -> str:
    item = session.items[index] if index is not None else None
    return _TEMPLATES.get_template("label_page.html.j2").render(
        session=session, item=item, index=index, done=done, total=len(session.items)
    )


def make_server(session: Session, port: int = 0, now: Callable[[], str] | None = None) -> ThreadingHTTPServer:
    """A server on 127.0.0.1 (port 0: any free one) for `session`; call serve_forever() to run it."""
    from ragpipe.labels.import_lines import now_iso

    clock = now or now_iso
    by_id = {item.answer_id: item for item in session.items}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet: the terminal shows the URL and progress only
            pass

        def _send(self, status: int, body: str, kind: str = "text/html; charset=utf-8", location=None) -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; "
                             "script-src 'unsafe-inline'; form-action 'self'")  # fmt: skip
            if location:
                self.send_header("Location", location)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            url = urlparse(self.path)
            if url.path == "/progress":
                done = session.labelled()
                body = {"labelled": sum(i.answer_id in done for i in session.items), "total": len(session.items)}
                return self._send(200, json.dumps(body), "application/json")
            if url.path != "/":
                return self._send(404, "not found", "text/plain")
            done = session.labelled()
            asked = parse_qs(url.query).get("item", [None])[0]
            index = int(asked) if asked and asked.isdigit() and int(asked) < len(session.items) else None
            self._send(200, render(session, index if index is not None else session.next_open(done), done))

        def do_POST(self) -> None:
            if urlparse(self.path).path != "/label":
                return self._send(404, "not found", "text/plain")
            length = min(int(self.headers.get("Content-Length") or 0), 100_000)
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode("utf-8", "replace")).items()}
            item = by_id.get(form.get("answer_id", ""))
            label = form.get("label")
            if item is None or label not in LABELS:
                return self._send(400, "unknown answer or label", "text/plain")
            note = (form.get("note") or "").strip()[:2000] or None
            session.store(
                HumanLabelRecord(
                    corpus=session.corpus,
                    config=session.config,
                    answer_set=session.answer_set,
                    question_id=item.question_id,
                    answer_id=item.answer_id,
                    input_sha=item.input_sha,
                    label=label,
                    labeller=session.labeller,
                    labelled_at=clock(),
                    note=note,
                    source="labelling page",
                )
            )
            self._send(303, "", location="/")

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)
