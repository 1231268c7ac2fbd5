"""`ragpipe`: run the pipeline, read scorecards.

`run` drives Dagster (imported only there, from the `assets` package);
read-only commands open the warehouse read-only and never need Dagster.
"""

from __future__ import annotations

import json
import os
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from ragpipe.settings import database_path, warehouse_dir
from ragpipe.warehouse import connect, table_exists

app = typer.Typer(help="Evaluate RAG over PDFs, grader included.", no_args_is_help=True, add_completion=False)
console = Console(width=None if Console().is_terminal else 160)  # pipes and CI get a wide table

SCORECARD_FIELDS = [
    ("corpus", "corpus"), ("config", "config"), ("answer_set", "answers"), ("overall_pct", "overall %"),
    ("cpw", "correct/partial/wrong"), ("answerable", "answerable"),
    ("honesty", "negatives declined"), ("median_latency_ms", "median ms"), ("money", "ZERO-WRONG-MONEY"),
    ("grader_version", "grader"),
]


def read_scorecards(corpus: Optional[str] = None, config: Optional[str] = None) -> list[dict]:
    """The latest scorecards in the warehouse, filtered, as plain dicts."""
    path = database_path()
    if not path.exists():
        return []
    conn = connect(path, read_only=True)
    try:
        if not table_exists(conn, "scorecards"):
            return []
        frame = conn.execute(
            "SELECT * FROM scorecards WHERE (? IS NULL OR corpus = ?) AND (? IS NULL OR config = ?) "
            "ORDER BY corpus, config, answer_set",
            [corpus, corpus, config, config],
        ).df()
    finally:
        conn.close()
    records = json.loads(frame.to_json(orient="records"))
    return records


def print_scorecards(cards: list[dict]) -> None:
    table = Table(title="ragpipe scorecards", show_lines=False)
    for _, header in SCORECARD_FIELDS:
        table.add_column(header, no_wrap=True)
    for c in cards:
        values = {
            **c,
            "answerable": f"{c['answerable_correct']}/{c['answerable_total']} ({c['answerable_pct']}%)",
            "honesty": f"{c['negatives_declined']}/{c['negatives_total']}",
            "money": f"{c['money_bar']} ({c['wrong_money']})",
            "cpw": f"{c['correct']}/{c['partial']}/{c['wrong']}",
        }
        table.add_row(*(str(values[key]) for key, _ in SCORECARD_FIELDS))
    console.print(table)


@app.command()
def run(
    corpus: list[str] = typer.Option(None, "--corpus", help="corpus to run (repeatable); default demo"),
    config: list[str] = typer.Option(None, "--config", help="configuration (repeatable); default all"),
    all_corpora: bool = typer.Option(False, "--all", help="every corpus in corpora/ and every configuration"),
) -> None:
    """Materialize every asset for the corpus (and configurations), then print the scorecards."""
    os.environ.setdefault("DAGSTER_HOME", str(warehouse_dir() / "dagster_home"))
    os.makedirs(os.environ["DAGSTER_HOME"], exist_ok=True)
    from dagster import DagsterInstance

    from assets.partitions import CONFIGS, CORPORA
    from assets.runner import run_corpus

    corpora = CORPORA if all_corpora else (corpus or ["demo"])
    configs = CONFIGS if all_corpora or not config else config
    for name in corpora + configs:
        if name not in CORPORA and name not in CONFIGS:
            raise typer.BadParameter(f"unknown corpus or configuration {name!r}; corpora: {CORPORA}, configurations: {CONFIGS}")
    instance = DagsterInstance.get()
    for name in corpora:
        with console.status(f"materializing {name} x {', '.join(configs)}"):
            results = run_corpus(name, configs, instance=instance)
        if not all(r.success for r in results):
            console.print(f"[red]run for {name} failed; see `dagster dev -w workspace.yaml`[/red]")
            raise typer.Exit(1)
    print_scorecards([c for c in read_scorecards() if c["corpus"] in corpora and c["config"] in configs])


@app.command()
def scorecard(
    corpus: Optional[str] = typer.Option(None, help="only this corpus"),
    config: Optional[str] = typer.Option(None, help="only this configuration"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON list, one object per pair"),
) -> None:
    """The latest scorecards from the warehouse (read-only)."""
    cards = read_scorecards(corpus, config)
    if as_json:
        typer.echo(json.dumps(cards, indent=2))
        return
    if not cards:
        console.print("no scorecards yet: run `ragpipe run` first")
        raise typer.Exit(1)
    print_scorecards(cards)


if __name__ == "__main__":
    app()
