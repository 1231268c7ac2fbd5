"""What every benchmark shares: the FinanceBench corpus, a timer, and one way to report.

Benchmarks print a table (rich) and, with `--json`, one JSON object whose keys
stay the same across versions. Absolute times on a shared machine are noise;
every benchmark measures its alternative in the same run and reports ratios.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ragpipe.corpus.adapters import DataMissing, data_available, pdf_folder
from ragpipe.corpus.manifest import list_corpora
from ragpipe.warehouse.settings import corpora_dir, warehouse_dir


class Skipped(Exception):
    """What a benchmark needs is not on this machine: it says so in one line and exits 0, so a fresh
    clone's `make bench-quick` (run by .ci/run) passes while telling what it did not measure."""


def financebench_folder() -> Path:
    """The FinanceBench PDF folder, or Skipped with the reason (these benchmarks need real filings)."""
    manifest = list_corpora(corpora_dir())["financebench"]
    if not data_available(manifest):
        raise Skipped("FinanceBench data is absent (../shared/data/financebench or RAGPIPE_FINANCEBENCH_DIR)")
    try:
        return pdf_folder(manifest, warehouse_dir())
    except DataMissing as exc:
        raise Skipped(str(exc)) from None


class Stopwatch:
    seconds: float = 0.0


@contextmanager
def timed():
    watch = Stopwatch()
    start = time.perf_counter()
    try:
        yield watch
    finally:
        watch.seconds = time.perf_counter() - start


def report(title: str, result: dict, as_json: bool) -> None:
    """One JSON object on stdout with --json, else a two-column table."""
    if as_json:
        print(json.dumps(result, sort_keys=True))
        return
    table = Table(title=title)
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in result.items():
        table.add_row(key, f"{value:,.3f}" if isinstance(value, float) else str(value))
    Console().print(table)


def main(run, title: str, description: str, quick_help: str) -> None:
    """The command line every benchmark shares: --quick for a smaller sample, --json for one object."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help=quick_help)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    try:
        result = run(args.quick)
    except Skipped as exc:
        print(f"bench {Path(sys.argv[0]).stem}: skipped: {exc}")
        return
    report(title, result, args.json)
