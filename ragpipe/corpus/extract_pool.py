"""Extraction in worker processes with a memory cap and a time limit, so one hostile PDF costs one row.

A 2 MB file can hold a stream that inflates to gigabytes (a decompression
bomb): pdfium holds all of it and aborts when memory runs out, taking its
process along. So no PDF is read in the process that stores the results:
each worker runs under an address-space cap, a worker that dies or overruns
its time is replaced, and its file becomes a failed document whose reason
says which limit it met. The others are unaffected.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import signal
import time
from collections.abc import Iterator
from multiprocessing.connection import wait
from pathlib import Path

from ragpipe.corpus.extract import ExtractedPdf, extract_file

PARALLEL_MIN_BYTES = 16 << 20  # below this, a second worker process costs more than it saves


def memory_limit_mb() -> int:
    """Address space one extraction worker may use (RAGPIPE_EXTRACT_MEMORY_MB, default 2,048). The
    largest FinanceBench filing peaks near 60 MB; pdfium holds about twice a stream's inflated size."""
    return int(os.environ.get("RAGPIPE_EXTRACT_MEMORY_MB", "2048"))


def time_limit_s() -> float:
    """Seconds one file may take (RAGPIPE_EXTRACT_TIMEOUT, default 300): above the two minutes
    RAGPIPE_MAX_PAGES pages take at the slowest rate measured here."""
    return float(os.environ.get("RAGPIPE_EXTRACT_TIMEOUT", "300"))


def extract_workers() -> int:
    """Extraction processes one ingest (or one ingest shard) runs at once (RAGPIPE_EXTRACT_WORKERS,
    default one per core). A Celery worker sharing its machine with others sets its share of the cores."""
    value = os.environ.get("RAGPIPE_EXTRACT_WORKERS", "").strip()
    if not value:
        return os.cpu_count() or 1
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"RAGPIPE_EXTRACT_WORKERS={value!r}: give a whole number of at least 1")
    return int(value)


def _serve(conn, limit_bytes: int) -> None:
    """A worker: read paths, send back outcomes, under the memory cap until the parent hangs up."""
    resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
    conn.send("ready")  # the clock of a file starts once the worker has started, not while it imports
    while True:
        try:
            path = conn.recv()
        except EOFError:
            return
        try:
            outcome = extract_file(path)
        except MemoryError:
            outcome = (path.stat().st_size, _out_of_memory())
        conn.send(outcome)


def _out_of_memory(how: str = "") -> str:
    return (
        f"extraction stopped{how}: reading it needed more than the {memory_limit_mb():,} MB a document may use "
        "(RAGPIPE_EXTRACT_MEMORY_MB); a stream inflates too far (a decompression bomb?)"
    )


def _died(exitcode: int | None) -> str:
    """Why a worker is gone. pdfium aborts (SIGABRT) or faults when an allocation fails under the cap."""
    if exitcode is not None and -exitcode in (signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS, signal.SIGKILL):
        return _out_of_memory(f" (the reader died of {signal.Signals(-exitcode).name})")
    return f"extraction failed: the reader process exited with code {exitcode}"


class _Worker:
    def __init__(self, context, limit_bytes: int):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, limit_bytes), daemon=True)
        self.process.start()
        child.close()
        self.job: tuple[int, Path] | None = None
        self.started = 0.0
        self.ready = False

    def give(self, index: int, path: Path) -> None:
        """Hand over one file; a worker that died starting is seen by the caller's wait, like any death."""
        self.job = (index, path)
        try:
            if not self.ready:
                self.ready = self.conn.recv() == "ready"
            self.conn.send(path)
        except (EOFError, OSError):
            pass
        self.started = time.monotonic()

    def stop(self, kill: bool = False) -> None:
        if self.conn.closed:
            return
        if kill:
            self.process.kill()
        self.conn.close()
        self.process.join(timeout=10)


def extract_bounded(paths: list[Path], workers: int | None = None) -> Iterator[tuple[int, ExtractedPdf | str]]:
    """(size, pages or reason) for each path, in order, each read by a capped worker process
    (spawned: no forked threads). More than one worker only when the files are big enough to pay."""
    if not paths:
        return
    wanted = workers or extract_workers()
    if sum(p.stat().st_size for p in paths) < PARALLEL_MIN_BYTES:
        wanted = 1
    context = multiprocessing.get_context("spawn")
    limit_bytes, timeout = memory_limit_mb() << 20, time_limit_s()
    pending = list(enumerate(paths))[::-1]
    done: dict[int, tuple[int, ExtractedPdf | str]] = {}
    pool = [_Worker(context, limit_bytes) for _ in range(min(wanted, len(paths)))]
    next_out = 0
    try:
        while next_out < len(paths):
            for worker in pool:
                if worker.job is None and pending:
                    worker.give(*pending.pop())
            busy = [w for w in pool if w.job is not None]
            deadline = min(w.started for w in busy) + timeout
            ready = wait(
                [w.conn for w in busy] + [w.process.sentinel for w in busy], max(0.0, deadline - time.monotonic())
            )
            for i, worker in enumerate(pool):
                if worker.job is None:
                    continue
                index, path = worker.job
                reason = None
                if worker.conn in ready:
                    try:
                        done[index] = worker.conn.recv()
                        worker.job = None
                        continue
                    except (EOFError, OSError):
                        worker.process.join(timeout=10)
                        reason = _died(worker.process.exitcode)
                elif worker.process.sentinel in ready:
                    worker.process.join(timeout=10)
                    reason = _died(worker.process.exitcode)
                elif time.monotonic() - worker.started >= timeout:
                    reason = (
                        f"extraction took longer than the {timeout:g} s a document may take (RAGPIPE_EXTRACT_TIMEOUT)"
                    )
                if reason is not None:
                    done[index] = (path.stat().st_size, reason)
                    worker.stop(kill=True)
                    worker.job = None
                    if pending:
                        pool[i] = _Worker(context, limit_bytes)
            while next_out in done:
                yield done.pop(next_out)
                next_out += 1
    finally:
        for worker in pool:
            worker.stop(kill=worker.job is not None)
