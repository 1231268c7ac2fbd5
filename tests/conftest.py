"""Shared fixtures: a scratch warehouse per test session, the demo corpus, ../shared data."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
DEMO_SOURCE = ROOT / "corpora" / "demo" / "documents.yaml"
DEMO_QUESTIONS = ROOT / "corpora" / "demo" / "questions.yaml"
WHOLE_RUNS = {"end_to_end", "reliability", "distributed"}  # the folders of tests through whole runs


def pytest_collection_modifyitems(config, items):
    """`make test` runs on every core (pytest-xdist, `--dist loadfile --no-loadscope-reorder`: a file's
    tests share a worker, so the shared-data warehouse, used by one file, is built once; files are
    handed out in this order). The longest first: the shared-data file, then the files with end-to-end
    tests, so no worker is left with a long one at the end while the others idle. Every test of a folder
    of whole runs (end_to_end/, reliability/, distributed/) carries the `end_to_end` marker: `-m "not
    end_to_end"` and `make test-unit` (tests/unit/) leave them out."""
    for item in items:
        if Path(str(item.fspath)).parent.name in WHOLE_RUNS:
            item.add_marker(pytest.mark.end_to_end)
    items.sort(key=_order)  # stable: the order within each part is kept


def pytest_collection_finish(session):
    """Every test module (and Dagster, pandas, the definitions) is imported by now: set it aside from the
    cyclic collector, as the `ragpipe` command does (ragpipe/cli/long_lived.py), so the in-process runs
    of each worker do not walk it on every pass."""
    from ragpipe.cli.long_lived import set_aside_imports

    set_aside_imports()


def _order(item) -> int:
    if "shared_warehouse" in item.fixturenames:
        return 0
    return 1 if item.get_closest_marker("end_to_end") is not None else 2


@pytest.fixture(autouse=True)
def _no_command_outlives_its_test():
    """A `ragpipe` a test started and did not stop (a test that skips once the server is up: Chromium
    missing) is killed, not left serving for the rest of the session."""
    yield
    from tests.commands import STARTED

    while STARTED:
        process = STARTED.pop()
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=60)


def needs_shared(sub: str) -> Path:
    """The third-party data folder `sub`, or skip with the reason."""
    path = SHARED / sub
    if not path.exists():
        pytest.skip(f"{path} is absent: third-party corpora live in ../shared/data beside the project")
    return path


@pytest.fixture(scope="session")
def demo_pdfs(tmp_path_factory) -> Path:
    from ragpipe.corpus.demo_pdfs import write_demo_corpus

    folder = tmp_path_factory.mktemp("demo-pdfs")
    write_demo_corpus(DEMO_SOURCE, folder)
    return folder


@pytest.fixture(scope="session")
def demo_ingested(demo_pdfs):
    from ragpipe.corpus.ingest import ingest_folder

    return ingest_folder("demo", demo_pdfs)


@pytest.fixture(scope="module")
def context(demo_ingested):
    """Retrieval over the demo corpus (200-word chunks, top 3), for engines to answer from."""
    from ragpipe.answering.engines import RetrievalContext
    from ragpipe.retrieval.chunking import chunk_pages
    from ragpipe.retrieval.index import ChunkIndex

    chunks = chunk_pages(demo_ingested.pages, "demo", "t", 200, 40)
    return RetrievalContext(ChunkIndex.build(chunks), chunks.set_index("chunk_id"), 3)


@pytest.fixture(scope="session")
def demo_questions():
    from ragpipe.corpus.questions import load_questions

    return load_questions(DEMO_QUESTIONS)


@pytest.fixture(scope="session")
def rules():
    from ragpipe.grading.rules import load_rules

    return load_rules()


@pytest.fixture(scope="session")
def shared_warehouse(tmp_path_factory) -> Path:
    """Every corpus and configuration materialized once through Dagster into a scratch
    warehouse, on the real third-party data (skipped when ../shared/data is absent)."""
    if not (SHARED / "financebench").exists() or not (SHARED / "aragog").exists():
        pytest.skip(f"{SHARED} is absent: third-party corpora live in ../shared/data beside the project")
    from dagster import DagsterInstance

    from assets.runs.runner import run_corpus
    from assets.shared.partitions import CONFIGS

    folder = tmp_path_factory.mktemp("shared-warehouse")
    instance = DagsterInstance.ephemeral()
    for corpus in ("aragog", "demo", "financebench"):  # the order of `ragpipe run --all`: alphabetical
        assert all(
            r.success for r in run_corpus(corpus, CONFIGS, instance=instance, resources=warehouse_resources(folder))
        )
    return folder


def warehouse_resources(warehouse: Path, rules_path: Path | None = None, **project) -> dict:
    from assets.shared.resources import resources_for

    return resources_for(warehouse, ROOT / "corpora", rules_path, **project)


@pytest.fixture(scope="session")
def demo_warehouse_once(tmp_path_factory, worker_id) -> Path:
    """The demo's `default` pair materialized once by a real Dagster run, for the whole `make test`: its
    workers share it (the first that needs it builds it). Read it only: a test that writes takes
    `demo_warehouse`, its own copy."""
    import shutil

    from dagster import DagsterInstance
    from filelock import FileLock

    from assets.runs.runner import run_corpus

    root = tmp_path_factory.getbasetemp()
    root = root if worker_id == "master" else root.parent  # the folder xdist's workers share
    folder, built = root / "demo-warehouse", root / "demo-warehouse.built"
    with FileLock(str(root / "demo-warehouse.lock")):
        if not built.exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a failed build left
            results = run_corpus(
                "demo", ["default"], instance=DagsterInstance.ephemeral(), resources=warehouse_resources(folder)
            )
            assert all(r.success for r in results)
            built.touch()
    return folder


@pytest.fixture()
def demo_warehouse(demo_warehouse_once, tmp_path) -> Path:
    """A private copy of the session's demo warehouse (milliseconds), for a test that writes to it."""
    import shutil

    target = tmp_path / "demo-warehouse"
    shutil.copytree(demo_warehouse_once, target)
    return target
