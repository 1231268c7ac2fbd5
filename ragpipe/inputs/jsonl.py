"""Read a JSONL file line by line: each bad line is a Problem, the rest still load.

Every string of every object is made valid text here (ragpipe/inputs/text.py): a `"\\ud800"`
is valid JSON, but no UTF-8 writer takes what it decodes to."""

from __future__ import annotations

import json
from pathlib import Path

from ragpipe.inputs.problems import Problem
from ragpipe.inputs.text import valid_json

# not hashed into the grader version (grading/version.py)
DECIDES_NO_VERDICT = "reads JSON lines; a bad line is refused, never reinterpreted"


class KeyTwice(ValueError):
    """An object names one key twice: JSON keeps the last, silently, so `"label"` twice once took the
    second label without a word. It says two things and is read as neither."""

    def __init__(self, key: str):
        super().__init__(f"key {key!r} given twice")
        self.key = key


def _each_key_once(pairs: list[tuple[str, object]]) -> dict:
    found: dict = {}
    for key, value in pairs:
        if key in found:
            raise KeyTwice(key)
        found[key] = value
    return found


def read_jsonl(path: Path, problems: list[Problem]) -> list[tuple[int, dict]]:
    """(line number, object) for every line that holds a JSON object; problems for the others. A line
    that is not UTF-8 is one problem: the file's other lines still load."""
    rows = []
    # JSON Lines ends a line at "\n" alone: str.splitlines() would also cut at U+2028, U+0085 and
    # the like, which a valid JSON string may hold raw, and then misnumber every later line. Lines are
    # cut as bytes, then decoded one by one, so one bad byte costs its own line only
    for lineno, raw in enumerate(path.read_bytes().split(b"\n"), 1):
        try:
            line = raw.decode("utf-8").removeprefix("\ufeff" if lineno == 1 else "").removesuffix("\r")
        except UnicodeDecodeError as exc:
            problems.append(Problem(str(path), lineno, "(line)", f"not UTF-8 text (byte {exc.start} of the line)"))
            continue
        if not line.strip():
            continue
        try:
            row = json.loads(line, object_pairs_hook=_each_key_once)
        except KeyTwice as exc:
            problems.append(Problem(str(path), lineno, exc.key, "given twice: a line says each field once"))
            continue
        except json.JSONDecodeError as exc:
            problems.append(Problem(str(path), lineno, "(line)", f"invalid JSON: {exc.msg}"))
            continue
        except RecursionError:  # "[[[[...": valid JSON nested deeper than the parser goes
            problems.append(Problem(str(path), lineno, "(line)", "invalid JSON: nested too deeply"))
            continue
        if not isinstance(row, dict):
            problems.append(Problem(str(path), lineno, "(line)", "expected a JSON object"))
            continue
        rows.append((lineno, valid_json(row)))
    return rows
