"""`ragpipe sql`: read-only SQL over the warehouse, answering at once.

It imports DuckDB, Typer and rich and nothing heavier (no pandas, no Dagster):
a user who types queries all day gets DuckDB's speed, not a pipeline's start.
`bench/cli_start.py` measures it against `python -c "import duckdb"`.
"""

from __future__ import annotations

import csv
import io
import json

import typer
from rich.table import Table

from ragpipe.cli.app import PIPELINE, app, console
from ragpipe.inputs.terminal import printable
from ragpipe.warehouse.lock import WarehouseBusy
from ragpipe.warehouse.settings import database_path
from ragpipe.warehouse.sql import DEFAULT_TIMEOUT, QueryResult, QueryTimeout, SqlRefused, run_query


def _plain(value):
    """A value as JSON and CSV show it: NULL as null/empty, dates as ISO text, lists as lists."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _cell(value) -> str:
    """A table or CSV cell: NULL shows empty, lists as they print, control characters as their escapes
    (inputs/terminal.py: an answer's bytes never drive the terminal)."""
    return "" if value is None else printable(str(_plain(value)))


def _as_csv(result: QueryResult) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(result.columns)
    writer.writerows([_cell(v) for v in row] for row in result.rows)
    return out.getvalue()


@app.command(rich_help_panel=PIPELINE)
def sql(
    query: str = typer.Argument(..., help='e.g. "SELECT verdict, count(*) FROM grades GROUP BY ALL"'),
    as_json: bool = typer.Option(False, "--json"),
    as_csv: bool = typer.Option(False, "--csv"),
    timeout: float = typer.Option(DEFAULT_TIMEOUT, "--timeout", min=0.1, help="stop the query after this many seconds"),
) -> None:
    """Run a query against the warehouse through a read-only connection (writes are refused).
    A query is stopped after --timeout seconds, since writers wait while it reads."""
    try:
        result = run_query(database_path(), query, timeout)
    except QueryTimeout as exc:
        console.print(f"{exc}", style="red")
        raise typer.Exit(1) from None
    except SqlRefused as exc:
        console.print(f"{exc}", style="red")
        raise typer.Exit(2) from None
    except WarehouseBusy:
        raise  # `ragpipe` says so and exits 3
    except Exception as exc:  # a bad query: say what DuckDB said
        console.print(f"query failed: {str(exc).splitlines()[0]}", style="red")
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps([dict(zip(result.columns, map(_plain, row))) for row in result.rows]))
    elif as_csv:
        typer.echo(_as_csv(result), nl=False)
    else:
        table = Table()
        for column in result.columns:
            table.add_column(str(column), overflow="fold")
        for row in result.rows:
            table.add_row(*(_cell(v) for v in row))
        console.print(table)
