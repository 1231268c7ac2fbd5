"""Resources: the DuckDB warehouse and where the project's files are."""

import json
import os
from collections.abc import Collection
from contextlib import contextmanager
from pathlib import Path

from dagster import ConfigurableResource, InitResourceContext
from dagster_duckdb import DuckDBResource
from pydantic import Field, PrivateAttr

from ragpipe.corpus.manifest import CorpusManifest, PipelineConfig, list_corpora, load_configs, resolve_config
from ragpipe.grading.rules import Rules, load_rules
from ragpipe.judge import PairJudging, pair_judge, pair_judging, rules_judged_by
from ragpipe.warehouse.lock import open_for_writing
from ragpipe.warehouse.settings import corpora_dir, judge_setting, judges_path, rules_path, warehouse_dir
from ragpipe.warehouse.tables import inputs_kept


class Warehouse(DuckDBResource):
    """DuckDB, opened for writing with ragpipe's bounded wait (RAGPIPE_LOCK_WAIT) on the file lock:
    a reader or another writer holding the file makes the step fail with WarehouseBusy, naming it,
    instead of retrying for minutes inside dagster-duckdb. Inside `held()`, every step in this process
    shares the one connection it opened."""

    def _open(self):
        return open_for_writing(Path(self.database), config={"custom_user_agent": "dagster", **self.connection_config})

    @contextmanager
    def get_connection(self):
        held = _HELD.get(self.database)
        if held is not None:
            yield held
            return
        conn = self._open()
        try:
            yield conn
        finally:
            conn.close()

    @contextmanager
    def held(self, inputs: Collection[str] = ()):
        """The warehouse opened once for a run of short steps in this process, the steps taking turns on
        that connection: a regrade's ten steps each opened and closed the file, 15 ms a time here, a tenth
        of a regrade. For runs in this process only (a step in another process would find the file held),
        and short ones: other processes wait for the whole run, not for one step. `inputs`: tables the run
        reads and never writes, each partition read once (`inputs_kept`)."""
        if self.database in _HELD:  # already held further up: that holder closes it
            yield
            return
        _HELD[self.database] = conn = self._open()
        try:
            with inputs_kept(conn, inputs):
                yield
        finally:
            _HELD.pop(self.database).close()


_HELD: dict[str, object] = {}  # database path -> the connection `Warehouse.held` opened in this process


GRADER_KEY = "ragpipe/grader/"  # + run id + pair (or "rules"): the grader version the run began with


class GraderChanged(RuntimeError):
    """The grader a step reads is not the one its run began with."""


class Project(ConfigurableResource):
    """Paths of the corpora folder, the warehouse folder and the grader rules."""

    corpora_dir: str
    warehouse_dir: str
    rules_path: str = ""
    shards: int = Field(
        default=1, ge=1
    )  # answers and grades are cut into this many shards by question-id hash (RAGPIPE_SHARDS)
    engine_override: str = ""  # JSON {"engine", "settings", "concurrency"} from `ragpipe run --engine`; never a key
    progress_bar: bool = False  # parsing, answering and grading draw rich bars (a command run on a terminal)
    judge: str = ""  # a `judges:` entry to grade every pair with (--judge, RAGPIPE_JUDGE): overrides configs.yaml's
    judge_on: str = "tentative"  # which verdicts that judge is asked about (RAGPIPE_JUDGE_ON)
    # one grader per run: what this process read of it, and the run whose tags pin it across processes
    _read: dict = PrivateAttr(default_factory=dict)
    _run: tuple | None = PrivateAttr(default=None)

    def setup_for_execution(self, context: InitResourceContext) -> None:
        """A run's steps grade with the grader as the run first read it: rules and each pair's judge are read
        once in a process (editing configs.yaml mid-run once left the summary naming one judge and the grades
        another), and the version read first is pinned for the run in the instance, so a step in another
        process that reads another grader stops, saying so, rather than mix two."""
        self._read, self._run = {}, None
        if context.instance is not None and context.run is not None:
            self._run = (context.instance, context.run.run_id)

    def _pinned(self, what: str, read):
        """`read()` once in this step's process, its version checked against (or recorded as) the run's pin;
        outside a run (a sensor's tick, a command's own read) afresh each time, as the files are now."""
        if self._run is None:
            return read()
        if what not in self._read:
            value = read()
            self._pin(self._run, what, value.rules.version if isinstance(value, PairJudging) else value.version)
            self._read[what] = value
        return self._read[what]

    @staticmethod
    def _pin(run: tuple, what: str, version: str) -> None:
        """The run's pin of `what`, in the instance's key-value store (never its tags: Dagster rewrites a run's
        tags whole, so a tag written here beside a sensor's, ragpipe/follows, once lost it)."""
        instance, run_id = run
        key = f"{GRADER_KEY}{run_id}/{what}"
        pinned = instance.run_storage.get_cursor_values({key}).get(key)
        if pinned is None:
            instance.run_storage.set_cursor_values({key: version})
        elif pinned != version:
            raise GraderChanged(
                f"the grader of {what} changed during this run: it began with {pinned} and now reads {version} "
                "(the rules, configs.yaml or a judge edited meanwhile); the run stops rather than grade with two: "
                "run it again"
            )

    @property
    def root(self) -> Path:
        return Path(self.warehouse_dir)

    def manifest(self, corpus: str) -> CorpusManifest:
        return list_corpora(Path(self.corpora_dir))[corpus]

    def config(self, corpus: str, name: str) -> PipelineConfig:
        knobs = resolve_config(self.manifest(corpus), name, load_configs(Path(self.corpora_dir)))
        if self.engine_override:
            override = json.loads(self.engine_override)
            knobs = knobs.model_copy(
                update={
                    "answer_set": override.get("answer_set"),
                    "engine": override["engine"],
                    "engine_settings": override.get("settings", {}),
                    "concurrency": override.get("concurrency", knobs.concurrency),
                }
            )
        return knobs

    def rules(self) -> Rules:
        """The grader's rules with the judge named for every pair (`--judge`, RAGPIPE_JUDGE), if any: their
        version names the judge too (a judge is part of the ruler). A pair's own: `judging_of`."""
        return rules_judged_by(self.rules_alone(), judges_path(Path(self.corpora_dir)), self.judge)

    def rules_alone(self) -> Rules:
        """The rules without the judge: what the rule verdicts are graded by (read once in a run)."""
        return self._pinned("rules", lambda: load_rules(Path(self.rules_path) if self.rules_path else None))

    def judge_of(self, corpus: str, config: str) -> str:
        """The name of the judge the pair is graded with ("" for none), read from the configuration alone:
        see `ragpipe.judge.pair_judge`."""
        return pair_judge(Path(self.corpora_dir), corpus, config, self.judge, self.judge_on)[0]

    def judging_of(self, corpus: str, config: str) -> PairJudging:
        """The pair's judge, which verdicts it is asked about, and its grader, read once in a run (an unknown
        judge refused, naming the configuration): `ragpipe.judge.pair_judging`. What grades."""
        return self._pinned(f"{corpus}/{config}", lambda: self.judging_now(corpus, config))

    def judging_now(self, corpus: str, config: str) -> PairJudging:
        """The same, as the files say now: what a check compares the stored grades with (the loaded grader)."""
        corpora = Path(self.corpora_dir)
        judges = judges_path(corpora)  # the project's own configs.yaml, unless RAGPIPE_JUDGES names another
        return pair_judging(self.rules_alone(), judges, corpora, corpus, config, self.judge, self.judge_on)

    def index_dir(self, corpus: str, config: str) -> Path:
        return self.root / "index" / corpus / config


def resources_for(warehouse: Path, corpora: Path, rules: Path | None = None, **project) -> dict:
    """The resources of one warehouse folder: its DuckDB file, and where the corpora and rules are."""
    return {
        "duckdb": Warehouse(database=str(warehouse / "ragpipe.duckdb")),
        "project": Project(
            corpora_dir=str(corpora), warehouse_dir=str(warehouse), rules_path=str(rules or ""), **project
        ),
    }


def default_resources(**project) -> dict:
    """The resources of the configured warehouse. Without `project` fields, shards come from
    RAGPIPE_SHARDS, so a deployment (or `dagster dev`) can set them in its environment."""
    project.setdefault("shards", int(os.environ.get("RAGPIPE_SHARDS", "1")))
    judge, judge_on = judge_setting()
    project.setdefault("judge", judge)
    project.setdefault("judge_on", judge_on)
    return resources_for(warehouse_dir(), corpora_dir(), rules_path(), **project)
