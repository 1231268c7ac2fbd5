"""`ragpipe answers list` and `ragpipe answers remove`: the systems a pair holds, and taking one away."""

from __future__ import annotations

import json

import typer
from rich.table import Table

from ragpipe.cli.app import SYSTEMS, app, console, say
from ragpipe.cli.orchestrator import orchestrator
from ragpipe.warehouse.lock import WarehouseBusy, open_for_writing, writing
from ragpipe.warehouse.settings import database_path, warehouse_dir
from ragpipe.warehouse.sql import readonly_connection

answers_app = typer.Typer(help="The answer sets (systems) each pair holds.", no_args_is_help=True)
app.add_typer(answers_app, name="answers", rich_help_panel=SYSTEMS)


@answers_app.command("list")
def list_answer_sets(
    corpus: str | None = typer.Option(None, "--corpus"),
    config: str | None = typer.Option(None, "--config"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Every answer set of every pair: engine, answers, errors (read-only)."""
    from ragpipe.warehouse.nulls import records
    from ragpipe.warehouse.tables import table_exists

    with readonly_connection(database_path()) as conn:
        if not table_exists(conn, "answers"):
            console.print("no answers yet: run `ragpipe run` first")
            raise typer.Exit(1)
        rows = conn.execute(
            "SELECT corpus, config, answer_set, any_value(engine) AS engine, count(*) AS answers, "
            "count(error) AS errors FROM answers WHERE (? IS NULL OR corpus = ?) AND (? IS NULL OR config = ?) "
            "GROUP BY ALL ORDER BY ALL",
            [corpus, corpus, config, config],
        ).df()
    if as_json:
        say(json.dumps(records(rows), indent=2))
        return
    table = Table(title="answer sets")
    for column in rows.columns:
        table.add_column(column)
    for record in rows.itertuples(index=False):
        table.add_row(*map(str, record))
    console.print(table)


@answers_app.command("remove")
def remove(
    answer_set: str = typer.Argument(..., help="the answer set to remove, as `ragpipe answers list` names it"),
    corpus: str = typer.Option(..., "--corpus"),
    config: str = typer.Option(..., "--config"),
) -> None:
    """Remove one answer set from one pair: its answers, grades, scorecard and attribution rows. Its verdicts
    stay in grade_history; the pair is regraded so its scorecards and delta are current."""
    from ragpipe.answering.answer_sets import remove_answer_set

    with writing(warehouse_dir(), f"ragpipe answers remove {answer_set}"):
        conn = open_for_writing(database_path())
        try:
            removed = remove_answer_set(conn, warehouse_dir(), corpus, config, answer_set)
        except LookupError as exc:
            console.print(f"{exc}", style="red")
            raise typer.Exit(1) from None
        finally:
            conn.close()
        outcome = orchestrator().regrade(corpus, config)
    if outcome.busy:
        raise WarehouseBusy(outcome.busy)
    counts = ", ".join(f"{n} {table}" for table, n in removed.items())
    console.print(f"removed {answer_set} from {corpus}/{config} ({counts}); grade_history keeps its verdicts")
