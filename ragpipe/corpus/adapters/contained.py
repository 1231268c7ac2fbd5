"""A corpus's data files stay inside the data folder its manifest names.

A link in a downloaded benchmark folder can point anywhere: one to a private PDF elsewhere put its text
into chunks, answers and the review report. A data file (a PDF, queries, qrels) whose resolved path
leaves the folder is refused in one line naming it; links ragpipe itself makes under the warehouse
point at files checked here first, and are not user input."""

from __future__ import annotations

from pathlib import Path


class DataOutside(ValueError):
    """A data file that resolves outside its corpus's data folder."""


def contained(data: Path, path: Path) -> Path:
    """`path` resolved, if it stays inside `data` (resolved too: a data folder may itself be a link)."""
    resolved, root = path.resolve(), data.resolve()
    if resolved != root and not resolved.is_relative_to(root):
        raise DataOutside(
            f"{path}: resolves to {resolved}, outside the corpus's data folder {root}: refused "
            "(copy the file into the folder, or name the folder that holds it in the manifest)"
        )
    return resolved
