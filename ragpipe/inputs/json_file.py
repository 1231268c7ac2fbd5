"""Read one JSON file that holds an object: the upstream layouts' `qrels.json` and the like.

A file that cannot be read, is not JSON, or holds something else than an object is a Problem naming
it, and None; every string in it is made valid text (ragpipe/inputs/text.py)."""

from __future__ import annotations

import json
from pathlib import Path

from ragpipe.inputs.problems import Problem
from ragpipe.inputs.text import valid_json


def read_json_object(path: Path, problems: list[Problem]) -> dict | None:
    try:
        data = valid_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        problems.append(Problem(str(path), getattr(exc, "lineno", 0), "(file)", f"cannot read: {exc}"))
        return None
    except RecursionError:  # "[[[[...": valid JSON nested deeper than the parser (or valid_json) goes
        problems.append(Problem(str(path), 0, "(file)", "cannot read: JSON nested too deeply"))
        return None
    if not isinstance(data, dict):
        problems.append(Problem(str(path), 1, "(file)", "expected a JSON object"))
        return None
    return data
