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

from ragpipe.cli.app import PIPELINE, app, console, say
from ragpipe.inputs.terminal import printable
from ragpipe.warehouse.lock import WarehouseBusy
from ragpipe.warehouse.settings import database_path
from ragpipe.warehouse.sql import DEFAULT_TIMEOUT, QueryTimeout, SqlRefused, run_query

TABLE_ROWS = 100  # the rows a table draws unless told: drawing 61,245 rows took 34 s where the query took 0.4


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


class _Streamed:
    """Writes a query's rows to standard output as they arrive, as CSV or as one JSON array."""

    def __init__(self, as_json: bool):
        self.as_json, self.started, self.written = as_json, False, 0
        self.out = io.StringIO()
        self.writer = csv.writer(self.out, lineterminator="\n")

    def __call__(self, columns: list[str], batch: list[tuple]) -> None:
        if self.as_json:
            if not self.started:
                say("[", nl=False)
            if batch:
                rows = ", ".join(json.dumps(dict(zip(columns, map(_plain, row)))) for row in batch)
                say((", " if self.written else "") + rows, nl=False)
        else:
            if not self.started:
                self.writer.writerow(columns)
            self.writer.writerows([_cell(v) for v in row] for row in batch)
            say(self.out.getvalue(), nl=False)
            self.out.seek(0), self.out.truncate()
        self.started, self.written = True, self.written + len(batch)

    def close(self) -> None:
        if self.as_json:
            say("]" if self.started else "[]")


@app.command(rich_help_panel=PIPELINE)
def sql(
    query: str = typer.Argument(..., help='e.g. "SELECT verdict, count(*) FROM grades GROUP BY ALL"'),
    as_json: bool = typer.Option(False, "--json", help="every row, streamed as one JSON array"),
    as_csv: bool = typer.Option(False, "--csv", help="every row, streamed as CSV"),
    limit: int = typer.Option(
        TABLE_ROWS, "--limit", min=0, help="rows the table shows (0: every row); --csv and --json give them all"
    ),
    timeout: float = typer.Option(DEFAULT_TIMEOUT, "--timeout", min=0.1, help="stop the query after this many seconds"),
) -> None:
    """Run a query against the warehouse through a read-only connection (writes are refused).
    A query is stopped after --timeout seconds, since writers wait while it reads. The table shows the
    first --limit rows and says when more follow; --csv and --json stream every row."""
    streamed = _Streamed(as_json) if as_json or as_csv else None
    try:
        result = run_query(database_path(), query, timeout, limit=limit or None, each=streamed)
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
    if streamed is not None:
        streamed.close()
        return
    table = Table()
    for column in result.columns:
        table.add_column(str(column), overflow="fold")
    for row in result.rows:
        table.add_row(*(_cell(v) for v in row))
    console.print(table)
    if result.more:
        console.print(
            f"the first {len(result.rows):,} rows; more follow: --limit N shows N (0: every row), "
            "--csv or --json streams them all",
            style="yellow",
        )
