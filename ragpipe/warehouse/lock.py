"""Two ragpipe processes at once: writers take turns, readers wait briefly, nobody corrupts anything.

DuckDB allows one writing process per file, or any number of read-only
ones. Commands that write (`run`, `regrade`, ...) first take
`warehouse/.write.lock` (a file lock), so a second writer waits for the
first, up to RAGPIPE_LOCK_WAIT seconds (default 120), and then stops with
"warehouse busy" and who holds the lock. Read-only commands (`sql`,
`scorecard`, `review`) never take that lock: they open DuckDB read-only,
retrying while a writer's step holds the file, for the same bounded wait.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

import duckdb
from filelock import FileLock, Timeout

from ragpipe.warehouse.memory import duckdb_settings
from ragpipe.warehouse.setting_refused import SettingRefused


class WarehouseBusy(RuntimeError):
    """Another process holds the warehouse longer than we were willing to wait."""


class WarehouseUnwritable(RuntimeError):
    """The warehouse folder cannot be written (read-only, full, not ours): said in a line, nothing tried."""


class WarehouseUnreadable(RuntimeError):
    """The warehouse file is not a DuckDB database ragpipe can open (truncated, damaged, another format)."""


MAX_LOCK_WAIT = 24 * 3600.0


def seconds_setting(name: str, default: str, maximum: float, env=os.environ) -> float:
    """The environment variable `name` in seconds: a finite number from 0 to `maximum`; anything else is
    refused in a line naming it."""
    value = env.get(name, default)
    try:
        seconds = float(value)
    except ValueError:
        seconds = float("nan")
    if not 0 <= seconds <= maximum:  # NaN fails this too
        raise SettingRefused(f"{name}={value!r}: give seconds to wait, from 0 to {maximum:.0f}")
    return seconds


def lock_wait() -> float:
    """RAGPIPE_LOCK_WAIT in seconds (default 120): a finite number from 0 to a day; anything else is refused
    (-1 once meant waiting forever, `abc` a traceback)."""
    return seconds_setting("RAGPIPE_LOCK_WAIT", "120", MAX_LOCK_WAIT)


def _is_lock_conflict(exc: Exception) -> bool:
    return "lock" in str(exc).lower()


def open_read_only(path: Path, config: dict | None = None, wait: float | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only connection, waiting (bounded) while a writer holds the file."""
    return _open(path, True, config, wait)


def open_for_writing(path: Path, config: dict | None = None, wait: float | None = None) -> duckdb.DuckDBPyConnection:
    """A writing connection, waiting (bounded by RAGPIPE_LOCK_WAIT) while another process, a reader
    included, holds DuckDB's own file lock; then WarehouseBusy, naming that process."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return _open(path, False, config, wait)


def _open(path: Path, read_only: bool, config: dict | None, wait: float | None) -> duckdb.DuckDBPyConnection:
    wait = lock_wait() if wait is None else wait
    deadline, delay = time.monotonic() + wait, 0.05
    while True:
        try:
            return duckdb.connect(str(path), read_only=read_only, config={**duckdb_settings(path), **(config or {})})
        except duckdb.IOException as exc:
            if not _is_lock_conflict(exc):
                if path.is_file():
                    raise WarehouseUnreadable(unreadable_message(path, exc)) from None
                raise
            if time.monotonic() >= deadline:
                holder = re.search(r"PID (\d+)", str(exc))
                who = f" (process {holder.group(1)})" if holder else ""
                doing = "written" if read_only else "used"
                raise WarehouseBusy(
                    f"warehouse busy: {path} is being {doing} by another process{who}; waited {wait:.0f} s. "
                    "Try again when it finishes, or raise RAGPIPE_LOCK_WAIT."
                ) from exc
            time.sleep(delay)
            delay = min(delay * 2, 1.0)


def unreadable_message(path: Path, exc: Exception) -> str:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return (
        f"cannot open the warehouse {path}: {first}. It is damaged or not a DuckDB file: "
        "restore it, or move it aside and run `ragpipe run` to build it again"
    )


def _holder(owner: Path) -> str:
    try:
        holder = json.loads(owner.read_text())
        return f"`{holder['command']}` (process {holder['pid']}, since {holder['since']})"
    except (OSError, ValueError, KeyError):
        return "another process"


@contextmanager
def writing(root: Path, command: str, wait: float | None = None, on_wait: Callable[[str], None] | None = None):
    """Hold the warehouse's write lock for `command`; WarehouseBusy after a bounded wait. `on_wait`, when
    given, is told who holds the lock before the wait begins (a page says why a click takes long)."""
    wait = lock_wait() if wait is None else wait
    lock, owner = FileLock(str(root / ".write.lock")), root / ".write.owner"
    try:
        root.mkdir(parents=True, exist_ok=True)
        try:
            lock.acquire(timeout=0 if on_wait is not None else wait)
        except Timeout:
            if on_wait is None:
                raise
            on_wait(f"{_holder(owner)} is writing to {root}")
            lock.acquire(timeout=wait)
    except Timeout:
        raise WarehouseBusy(
            f"warehouse busy: {_holder(owner)} is writing to {root}; waited {wait:.0f} s. "
            "Try again when it finishes, or raise RAGPIPE_LOCK_WAIT."
        ) from None
    except OSError as exc:  # after Timeout, which is an OSError too
        raise WarehouseUnwritable(f"cannot write to the warehouse {root}: {exc.strerror or exc}") from None
    try:
        try:
            owner.write_text(json.dumps({"pid": os.getpid(), "command": command or " ".join(sys.argv[:2]),
                                         "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}))
        except OSError as exc:  # a full disk
            raise WarehouseUnwritable(f"cannot write to the warehouse {root}: {exc.strerror or exc}") from None
        yield
    finally:
        owner.unlink(missing_ok=True)
        lock.release()
