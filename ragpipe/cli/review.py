"""`ragpipe review`: the static HTML report a person reads to see why every verdict is what it is."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import typer

from ragpipe.cli.app import PIPELINE, app, console
from ragpipe.warehouse.settings import database_path
from ragpipe.warehouse.sql import readonly_connection


@app.command(rich_help_panel=PIPELINE)
def review(
    corpus: str = typer.Option(..., "--corpus", help="corpus name"),
    config: str = typer.Option("default", "--config", help="configuration name"),
    answers: str | None = typer.Option(
        None, "--answers", help="one answer set, e.g. extractive or labeled:gpt-4-turbo_oracle"
    ),
    grader: str | None = typer.Option(
        None, "--grader", help="a grader version from grade_history (default: the current grades)"
    ),
    delta_from: str | None = typer.Option(
        None, "--delta-from", help="the delta view's old version (default: the version before)"
    ),
    seed: int = typer.Option(0, "--seed", help="seed of the PASS audit sample"),
    sample: int = typer.Option(20, "--sample", min=1, help="answers in the PASS audit sample"),
    out: Path = typer.Option(..., "--out", help="the HTML file to write"),
    compare_with: str | None = typer.Option(
        None, "--compare", help="the compare view: --answers A side by side with this answer set B"
    ),
    compare_config: str | None = typer.Option(None, "--compare-config", help="B's configuration (default: --config)"),
) -> None:
    """Write a self-contained HTML report (no network) of one pair's verdicts, with a PASS audit and a delta view.
    Read-only: it never takes the warehouse's write lock."""
    from ragpipe.review.compare_view import load_compare
    from ragpipe.review.data import load_review
    from ragpipe.review.render import render_compare, write_html, write_report

    if compare_with is not None and answers is None:
        console.print("--compare B needs --answers A: the set B is compared with", style="red")
        raise typer.Exit(2)
    if compare_with is not None:
        view = _loaded(
            lambda conn: load_compare(conn, corpus, config, cast(str, answers), compare_config or config, compare_with)
        )
        path = write_html(render_compare(view), out)
        console.print(f"wrote {path} ({view.result['n']} questions, {len(view.result['flips'])} flip)")
        return
    data = _loaded(lambda conn: load_review(conn, corpus, config, answers, grader, delta_from, seed, sample))
    path = write_report(data, out)
    console.print(
        f"wrote {path} ({len(data.rows)} answers, grader {data.grader_version}, {len(data.flips)} flips, "
        f"PASS audit of {len(data.audit_sample)})"
    )


def _loaded(load):
    """What `load` reads from the warehouse (read-only); a missing warehouse or a pair, set or version it
    lacks is one red line and exit code 1."""
    from ragpipe.review.data import ReviewError

    try:
        conn = readonly_connection(database_path())
    except FileNotFoundError as exc:
        console.print(f"{exc}", style="red")
        raise typer.Exit(1) from None
    try:
        return load(conn)
    except ReviewError as exc:
        console.print(f"{exc}", style="red")
        raise typer.Exit(1) from None
    finally:
        conn.close()
