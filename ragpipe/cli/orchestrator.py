"""What the commands need from whatever materializes the pipeline, and nothing more.

The library defines this interface and never imports an implementation: the
`ragpipe` command (`assets/cli.py`) hands the Dagster one to `main`. A run's
settings travel in `RunSettings`, not through environment variables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, cast

WHERE_DETAILS = "details: `make dev`, then the failed run under Runs"  # the UI on this DAGSTER_HOME


@dataclass(frozen=True)
class RunSettings:
    """What `ragpipe run` asks of a run beyond (corpus, configurations). A dataclass, not a pydantic model:
    every command imports this module, and pydantic's schema building cost each of them 0.15 s."""

    shards: int = 1  # answers and grades cut into this many shards by question-id hash
    engine_override: dict | None = None  # {"engine", "settings", "concurrency"}; names a key's variable, never a key
    progress_bar: bool = False  # rich bars (parsing, answering, grading) on the terminal that started it
    in_processes: bool = False  # each pair's steps in worker processes, shards side by side
    on_celery: bool = False  # each pair's steps on Celery workers (docs/deploy.md)

    def __post_init__(self) -> None:
        if not isinstance(self.shards, int) or self.shards < 1:
            raise ValueError(f"shards must be a whole number of at least 1, not {self.shards!r}")


@dataclass
class Outcome:
    """What a materialization came to, in the commands' terms."""

    failed_runs: int = 0
    failed_money: list[dict] = field(default_factory=list)  # failed ZERO-WRONG-MONEY checks' metadata: sets blocked
    busy: str | None = None  # the "warehouse busy" message of a step that could not open the warehouse
    failure: str | None = None  # what the first failed step said, at its root cause
    said: list[str] = field(default_factory=list)  # what the steps asked to be said on the terminal, per pair
    # a regrade: (pair, what it committed and what not, whether its grades were) for each pair a stage failed
    stopped: list[tuple[str, str, bool]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.failed_runs == 0

    @property
    def failed_otherwise(self) -> bool:
        """Some run failed (a money check fails no run: it blocks its answer sets alone)."""
        return self.failed_runs > 0


class Orchestrator(Protocol):
    def materialize(self, corpus: str, configs: list[str], settings: RunSettings) -> Outcome:
        """Every stage of `corpus` and of each (corpus, configuration) pair."""

    def materialize_corpus_stages(self, corpus: str) -> Outcome:
        """Ingest, questions and needles of `corpus`."""

    def regrade(self, corpus: str, config: str, on_celery: bool = False, progress_bar: bool = False) -> Outcome:
        """Grades and everything downstream of one pair, from its stored answers (on Celery workers), with a
        progress bar of the grading on the terminal that asked (`progress_bar`)."""

    def regrade_all(self, pairs: list[tuple[str, str]], progress_bar: bool = False) -> Outcome:
        """Grades and everything downstream of every pair in `pairs`, in one run (a regrade costs by
        answers, not by pairs), with progress bars of the grading on the terminal that asked."""

    def rescore(self, corpus: str, config: str) -> Outcome:
        """Scorecards and the reports that read them, for changed labels: no grading is recorded."""


class ServiceUnavailable(RuntimeError):
    """A server a distributed run depends on (PostgreSQL, Redis) stopped answering: said in one line."""


COMMAND_TAG = "ragpipe/command"  # on every run a command starts: which one, shown in the UI's run list
_command: list[str] = []


def said_command(argv: list[str]) -> str:
    """`ragpipe corpus stats financebench`: the command's words up to its first option (never an option's
    value: a URL or a setting may hold what must not reach the run history)."""
    words = []
    for word in argv[:3]:
        if word.startswith("-"):
            break
        words.append(word)
    return " ".join(["ragpipe", *words])


def set_command(argv: list[str]) -> None:
    _command[:] = [said_command(argv)]


def command() -> str | None:
    """The command this process runs, if started as `ragpipe`."""
    return _command[0] if _command else None


_current: list[Orchestrator] = []
_factory: list[Callable[[], Orchestrator]] = []


def use(orchestrator: Orchestrator | Callable[[], Orchestrator]) -> None:
    """The orchestrator the commands materialize through, or a function that makes it on first use (so a
    command that only reads never loads the orchestrator, nor the corpora and rules its definitions read)."""
    if callable(orchestrator) and not hasattr(orchestrator, "materialize"):
        _current.clear()
        _factory[:] = [orchestrator]
    else:
        _current[:] = [cast(Orchestrator, orchestrator)]


def orchestrator() -> Orchestrator:
    if not _current and _factory:
        _current.append(_factory[0]())
    if not _current:
        raise RuntimeError(
            "no orchestrator: start the commands through `ragpipe` (assets/cli.py), which provides Dagster's"
        )
    return _current[0]
