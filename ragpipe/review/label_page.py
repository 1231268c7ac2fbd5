"""The labelling page (`ragpipe label`): one answer at a time, the person's verdict stored at each click.

`ragpipe label` serves it on 127.0.0.1 only, with Starlette on uvicorn (a kept server parses HTTP: a
bad `Content-Length` is its 400, not a crashed or blocked handler here): no file or address beyond the
page itself, nothing fetched from the network. Per answer it shows the question, the gold answer, the
answer with the grader's highlights (review/annotate.py) and verdict, the passages it cites (the chunks
the engine cited, with document and pages), buttons correct / incorrect /
refusal (keys c, i, r), a note and the progress. A click is one POST that writes one `human_labels` row
under the warehouse's write lock, then the page moves to the next answer nobody labelled: a killed
server loses nothing, and a restarted one resumes. A click that could not be stored is answered with
the page again, saying so.

Only the labeller writes labels: every request must name this server in its Host (a page elsewhere
cannot reach it through a DNS name that points here), and a POST must come from this page (its Origin,
when the browser sends one, and the form's token, drawn when the server starts and known to nobody
else). Anything else is a 403.
"""

from __future__ import annotations

import hmac
import re
import secrets
import signal
import socket
import sys
import threading
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs

from jinja2 import Environment, FileSystemLoader, select_autoescape

from ragpipe.corpus.kinds import declining_is_right
from ragpipe.grading.grade import Verdict
from ragpipe.inputs.terminal import printable
from ragpipe.labels.label import LABELS, HumanLabelRecord

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
    kind: str = "answerable"  # what "correct" and "refusal" mean depends on it (said on the page)
    passages: list[dict] = field(default_factory=list)  # the cited chunks: chunk_id, doc_id, pages, text
    citations: list[str] = field(default_factory=list)  # the documents it cites


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
    remove: Callable[[HumanLabelRecord], None] | None = None  # takes one label back (undo)
    given: list[HumanLabelRecord] = field(default_factory=list)  # this page's labels, last last: what undo takes

    def next_open(self, done: dict[str, str]) -> int | None:
        return next((i for i, item in enumerate(self.items) if item.answer_id not in done), None)


MAX_FORM_BYTES = 100_000
CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action 'self'"
_ITEM = re.compile(r"[0-9]{1,9}")  # ASCII digits: `?item=²` is not a number (str.isdigit says it is)


MEANING = {  # what the three labels mean for a question the documents cannot (fully) answer
    "negative": "The documents cannot answer this question: an answer that says so is right (label it "
    "refusal); one that asserts an answer is incorrect.",
    "ambiguous": "Declining and answering are both acceptable here: label a decline refusal, and an answer "
    "correct or incorrect.",
}


def render(
    session: Session, index: int | None, done: dict[str, str], token: str = "", error: str = "", last: int | None = None
) -> str:
    """The page at `index`. The grader's verdict and marks are hidden until the answer is labelled (they
    would anchor the person to the grader being measured); after a click, `last` says whether they agreed."""
    item = session.items[index] if index is not None else None
    previous = session.items[last] if last is not None and session.items[last].answer_id in done else None
    return _TEMPLATES.get_template("label_page.html.j2").render(
        session=session,
        item=item,
        index=index,
        done=done,
        total=len(session.items),
        token=token,
        error=error,
        previous=previous,
        agreed=previous is not None and _agrees(done[previous.answer_id], previous),
        meaning=MEANING.get(item.kind) if item else None,
        can_undo=bool(session.given) and session.remove is not None,
    )


def _agrees(label: str, item: Item) -> bool:
    """Does the person's label say what the grader's verdict says (a refusal is right where declining is)?"""
    right = label == "correct" or (label == "refusal" and declining_is_right(item.kind))
    return right == (item.verdict == Verdict.CORRECT)


@dataclass
class LabelPage:
    """The page's app for one `session`, bound to 127.0.0.1:`port`, with its form token."""

    session: Session
    port: int
    now: Callable[[], str]
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    storing: InFlight = field(default_factory=lambda: InFlight())

    def app(self):
        from starlette.applications import Starlette
        from starlette.routing import Route

        return Starlette(
            routes=[
                Route("/", self.page, methods=["GET"]),
                Route("/progress", self.progress, methods=["GET"]),
                Route("/label", self.label, methods=["POST"]),
                Route("/undo", self.undo, methods=["POST"]),
            ]
        )

    def _ours(self, request, posting: bool) -> bool:
        """The request names this server, and a POST comes from its page (Origin, when sent, and the token
        are checked by the caller once the form is read)."""
        hosts = {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}
        if request.headers.get("host", "") not in hosts:
            return False
        origin = request.headers.get("origin")
        return not posting or origin is None or origin in {f"http://{h}" for h in hosts}

    def _html(self, body: str, status: int = 200):
        from starlette.responses import HTMLResponse

        return HTMLResponse(body, status, headers={"Content-Security-Policy": CSP, "Cache-Control": "no-store"})

    def _refused(self, request, why: str | None = None):
        """A 403 that says what was refused and how to reach the page (behind a tunnel or a forwarded port,
        the browser names another Host: forward to the same port number)."""
        from starlette.responses import PlainTextResponse

        host = printable(request.headers.get("host", ""))[:200]
        origin = request.headers.get("origin")
        if why is None:
            why = f"it names the host {host!r}" + (f" and comes from {printable(origin)[:200]!r}" if origin else "")
        return PlainTextResponse(
            f"refused: this page takes requests from its own page only, at http://127.0.0.1:{self.port} or "
            f"http://localhost:{self.port}; {why}. Through a tunnel or a forwarded port, forward the same port "
            f"number (ssh -L {self.port}:127.0.0.1:{self.port} ...) and open http://127.0.0.1:{self.port}",
            403,
        )

    async def _labelled(self) -> dict[str, str]:
        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(self.session.labelled)

    async def page(self, request):
        if not self._ours(request, posting=False):
            return self._refused(request)
        done = await self._labelled()
        asked = request.query_params.get("item", "")
        index = int(asked) if _ITEM.fullmatch(asked) and int(asked) < len(self.session.items) else None
        said = request.query_params.get("last", "")
        last = int(said) if _ITEM.fullmatch(said) and int(said) < len(self.session.items) else None
        return self._html(render(self.session, index if index is not None else self.session.next_open(done), done,
                                 self.token, last=last))  # fmt: skip

    async def progress(self, request):
        from starlette.responses import JSONResponse

        if not self._ours(request, posting=False):
            return self._refused(request)
        done = await self._labelled()
        return JSONResponse({"labelled": sum(i.answer_id in done for i in self.session.items),
                             "total": len(self.session.items)})  # fmt: skip

    async def _form(self, request):
        """(the posted form, None), or (None, the response refusing it): a POST from elsewhere, without the
        page's token, or larger than MAX_FORM_BYTES (read no further than that)."""
        from starlette.responses import PlainTextResponse

        if not self._ours(request, posting=True):
            return None, self._refused(request)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_FORM_BYTES:
                return None, PlainTextResponse("form too large", 413)
        form = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace")).items()}
        if not hmac.compare_digest(form.get("token", "").encode(), self.token.encode()):
            return None, self._refused(request, "the form does not carry this page's token")
        return form, None

    async def label(self, request):
        from starlette.concurrency import run_in_threadpool
        from starlette.responses import PlainTextResponse, RedirectResponse

        form, refused = await self._form(request)
        if refused is not None:
            return refused
        index = next((i for i, it in enumerate(self.session.items) if it.answer_id == form.get("answer_id")), None)
        label = form.get("label")
        if index is None or label not in LABELS:
            return PlainTextResponse("unknown answer or label", 400)
        item = self.session.items[index]
        note = (form.get("note") or "").strip()[:2000] or None
        row = HumanLabelRecord(
            corpus=self.session.corpus,
            config=self.session.config,
            answer_set=self.session.answer_set,
            question_id=item.question_id,
            answer_id=item.answer_id,
            input_sha=item.input_sha,
            label=label,
            labeller=self.session.labeller,
            labelled_at=self.now(),
            note=note,
            source="labelling page",
        )
        try:
            await run_in_threadpool(self.storing.run, self.session.store, row)
        except Exception as exc:  # busy, full disk, ...: the click is answered, never dropped unsaid
            said = f"not stored: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}. Click again."
            try:
                done = await self._labelled()
            except Exception:
                done = {}
            return self._html(render(self.session, index, done, self.token, said), 503)
        self.session.given.append(row)
        return RedirectResponse(f"/?last={index}", 303)  # the next answer, and whether the grader agreed

    async def undo(self, request):
        """Take back the last label this page gave, and show its answer again to label afresh."""
        from starlette.concurrency import run_in_threadpool
        from starlette.responses import PlainTextResponse, RedirectResponse

        _, refused = await self._form(request)
        if refused is not None:
            return refused
        if not self.session.given or self.session.remove is None:
            return PlainTextResponse("nothing to undo", 400)
        row = self.session.given.pop()
        await run_in_threadpool(self.storing.run, self.session.remove, row)
        index = next(i for i, it in enumerate(self.session.items) if it.answer_id == row.answer_id)
        return RedirectResponse(f"/?item={index}", 303)


class InFlight:
    """The clicks being stored now, counted in the threads that store them: a store goes on in its thread
    whatever happens to the request that asked for it, so the page stops only once every one has ended."""

    def __init__(self):
        self.count = 0
        self._idle = threading.Condition()

    def run(self, store: Callable, row) -> None:
        with self._idle:
            self.count += 1
        try:
            store(row)
        finally:
            with self._idle:
                self.count -= 1
                self._idle.notify_all()

    def wait_idle(self) -> None:
        """Until no click is being stored (each store is bounded by the warehouse's lock wait)."""
        with self._idle:
            self._idle.wait_for(lambda: self.count == 0)


def _server(config, storing: InFlight):
    """uvicorn's server, stopping on SIGINT and SIGTERM alike and then returning to its caller. uvicorn's
    own raises the signal again once it has stopped, and a SIGTERM would then end the process before the
    scorecards take the labels in; Ctrl-C and `kill` end the page the same way here. The first signal
    stops taking requests and lets those in flight finish (a click waiting for the warehouse's write lock
    is stored, and answered, before the page ends); a second stops waiting on them."""
    import uvicorn

    class Server(uvicorn.Server):
        @contextmanager
        def capture_signals(self):
            def stop(signum, frame):
                if self.should_exit:
                    self.force_exit = True
                    return
                self.should_exit = True
                if storing.count:
                    print(f"stopping once the {storing.count} click(s) being stored are stored "
                          "(again: stop answering them)", file=sys.stderr, flush=True)  # fmt: skip

            before = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
            try:
                yield
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)

    return Server(config)


def serve(session: Session, port: int = 0, on_ready: Callable[[int], None] | None = None,
          now: Callable[[], str] | None = None) -> None:  # fmt: skip
    """Serve the page on 127.0.0.1 (port 0: any free one) until SIGINT or SIGTERM; `on_ready(port)` is
    called once the port listens."""
    import uvicorn

    from ragpipe.labels.import_lines import now_iso

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(64)
    bound = sock.getsockname()[1]
    page = LabelPage(session, bound, now or now_iso)
    # no graceful-shutdown timeout: a click in flight is bounded by the warehouse's lock wait, and cutting it
    # short answered the browser with a 500 while its label was still stored afterwards
    config = uvicorn.Config(page.app(), log_level="warning", access_log=False, timeout_graceful_shutdown=None,
                            lifespan="off", server_header=False)  # fmt: skip
    if on_ready:
        on_ready(bound)
    try:
        _server(config, page.storing).run(sockets=[sock])
    finally:
        sock.close()
        page.storing.wait_idle()  # the caller recomputes the scorecards next: with every label stored
