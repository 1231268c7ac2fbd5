"""A report read as a mapping: what the Python API returns where a command prints JSON.

`result["kappa"]` and `dict(result)` read it as the command's `--json` does, so code written against
the plain dict keeps working; the class adds what a dict cannot say (`summary()`, one line, and `repr`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, eq=False)  # equal as mappings are (`Mapping.__eq__`): to the plain dict too
class ReportMapping(Mapping):
    """A read-only mapping over `data` (the report as `--json` prints it); `summary()` says it in a line."""

    data: dict

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def summary(self) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.summary()})"
