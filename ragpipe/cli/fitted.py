"""Tables that never break a name: a system, a file or a question id is read whole, or not at all.

A name column keeps its values on one line; the other columns (numbers, intervals, words) wrap at their
spaces, never inside a word: the widest of them give way first. When even so the table is wider than the
terminal, the rows are printed one block each, the name first and every other column as `column: value`
below it (the vertical form): `labeled:claude-2_inC` / `ontext` on two lines is never printed.
"""

from __future__ import annotations

from collections.abc import Collection

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text


def fitted_table(
    title: str, columns: list[str], rows: list[list[str]], names: Collection[str], lines: box.Box = box.HEAVY_HEAD
) -> Table:
    """The table at its natural width, its name columns unbreakable, the others wrapping at spaces."""
    table = Table(title=title, box=lines, collapse_padding=lines is box.SIMPLE_HEAD)
    for column in columns:
        table.add_column(column, no_wrap=column in names, overflow="fold")
    for row in rows:
        table.add_row(*row)
    return table


def fit(console: Console, table: Table, rows: list[list[str]], names: Collection[str], width: int) -> bool:
    """Give `table` column widths within `width` that cut no word and wrap no name (the widest column that can
    give way does, a character at a time); False when no such widths exist."""
    columns = table.columns
    headers = [str(c.header) for c in columns]  # every header here is a string
    natural = [max([len(h), *(len(row[i]) for row in rows)]) for i, h in enumerate(headers)]
    narrowest = [
        max([*(len(row[i]) if h in names else _longest_word(row[i]) for row in rows), _longest_word(h)])
        for i, h in enumerate(headers)
    ]
    unbounded = console.options.update(width=10_000)
    overhead = Measurement.get(console, unbounded, table).maximum - sum(natural)  # borders and padding
    widths, excess = list(natural), sum(natural) + overhead - width
    if excess <= 0:
        return True  # it fits as it is
    while excess > 0:
        slack = [(w - n, i) for i, (w, n) in enumerate(zip(widths, narrowest)) if w > n]
        if not slack:
            return False
        _, widest = max(slack)
        widths[widest] -= 1
        excess -= 1
    for column, w in zip(columns, widths):
        if column.header in names:
            column.min_width = w  # whole, as it was
        else:
            column.width = w
    return True


def _longest_word(text: str) -> int:
    return max((len(w) for w in str(text).split()), default=0)


def print_fitted(
    console: Console,
    title: str,
    columns: list[str],
    rows: list[list[str]],
    names: Collection[str],
    width: int | None = None,
    lines: box.Box = box.HEAVY_HEAD,
) -> None:
    """The table within `width` (the console's) where it fits whole, else the vertical form: a block per row,
    headed by its names."""
    width = width or console.width
    table = fitted_table(title, columns, rows, names, lines)
    if fit(console, table, rows, names, width):
        console.print(table, width=width)
        return
    console.print(Text(title, style="italic"), soft_wrap=True)
    for row in rows:
        head = [value for column, value in zip(columns, row) if column in names]
        console.print(Text(" ".join(head) or "-", style="bold"), soft_wrap=True)
        for column, value in zip(columns, row):
            if column not in names and value != "":
                console.print(Text(f"  {column}: {value}"), soft_wrap=True)
