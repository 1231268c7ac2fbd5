"""`ragpipe review`: the static HTML report a person reads to see why every verdict is what it is."""

from __future__ import annotations

from pathlib import Path

import typer

from ragpipe.cli.app import app, console
from ragpipe.grading.rules import load_rules
from ragpipe.review.data import ReviewError, load_review, rules_of
from ragpipe.review.render import write_report
from ragpipe.warehouse.settings import database_path, rules_path
from ragpipe.warehouse.sql import readonly_connection


@app.command()
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
) -> None:
    """Write a self-contained HTML report (no network) of one pair's verdicts, with a PASS audit and a delta view.
    Read-only: it never takes the warehouse's write lock."""
    try:
        conn = readonly_connection(database_path())
    except FileNotFoundError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from None
    try:
        data = load_review(conn, corpus, config, answers, grader, delta_from, seed, sample)
        rules = rules_of(conn, data.grader_version, load_rules(rules_path()))
    except ReviewError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from None
    finally:
        conn.close()
    path = write_report(data, rules, out)
    console.print(
        f"wrote {path} ({len(data.rows)} answers, grader {data.grader_version}, {len(data.flips)} flips, "
        f"PASS audit of {len(data.audit_sample)})"
    )
