"""Rows of a file people write by hand or export from a spreadsheet: JSON Lines, or CSV with a header.

A CSV cell is text: an empty cell is an absent field, a list field (`citations`, `golden_docs`...) is
its items separated by `;`, and a number field (`latency_ms`) is read as a number where it is one (else
it stays text, and the reader of the row refuses it naming the field). Each bad row is a Problem naming
the file, its line and the field; the other rows still load, as with JSON Lines (inputs/jsonl.py).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection
from pathlib import Path

from ragpipe.inputs.jsonl import read_jsonl
from ragpipe.inputs.problems import Problem
from ragpipe.inputs.text import valid_json

# not hashed into the grader version (grading/version.py)
DECIDES_NO_VERDICT = "reads rows of files; a bad row is refused, never reinterpreted"

LIST_SEPARATOR = ";"
ANSWER_LISTS, ANSWER_NUMBERS = ("citations",), ("latency_ms",)  # an answer file's list and number columns


def read_rows(
    path: Path, problems: list[Problem], lists: Collection[str] = (), numbers: Collection[str] = ()
) -> list[tuple[int, dict]]:
    """(line number, row) of every row of a `.csv` file, or of every JSON object of any other (JSON Lines)."""
    if path.suffix.lower() != ".csv":
        return read_jsonl(path, problems)
    return read_csv(path, problems, lists, numbers)


def read_csv(
    path: Path, problems: list[Problem], lists: Collection[str] = (), numbers: Collection[str] = ()
) -> list[tuple[int, dict]]:
    """The rows of a CSV file with a header line, keyed by its column names (see the module's docstring)."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.append(Problem(str(path), 0, "(file)", f"not UTF-8 text (byte {exc.start}): save it as UTF-8 CSV"))
        return []
    reader = csv.DictReader(io.StringIO(text, newline=""), restkey="(more cells)")
    header = reader.fieldnames or []
    twice = sorted({name for name in header if header.count(name) > 1})
    if twice:
        problems.append(Problem(str(path), 1, twice[0], "the header names this column twice"))
        return []
    rows = []
    try:
        for row in reader:
            line = reader.line_num
            if "(more cells)" in row:
                problems.append(Problem(str(path), line, "(row)", f"more cells than the header's {len(header)}"))
                continue
            rows.append((line, valid_json(_fields(row, lists, numbers))))
    except csv.Error as exc:
        problems.append(Problem(str(path), reader.line_num, "(file)", f"not CSV: {exc}"))
    return rows


def _fields(row: dict, lists: Collection[str], numbers: Collection[str]) -> dict:
    out: dict = {}
    for key, value in row.items():
        if value is None or value == "":
            continue  # an empty cell: the field is absent
        if key in lists:
            out[key] = [item.strip() for item in value.split(LIST_SEPARATOR) if item.strip()]
        elif key in numbers:
            out[key] = _number(value)
        else:
            out[key] = value
    return out


def _number(value: str) -> float | str:
    try:
        return float(value)
    except ValueError:
        return value
