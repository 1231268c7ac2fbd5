"""A problem with one row of input: file, line and field, in words.

Bad input costs the row it is on, not the file: loaders collect these and
carry on, and the warehouse keeps them as a table.
"""

from __future__ import annotations

from dataclasses import dataclass

# not hashed into the grader version (grading/version.py)
DECIDES_NO_VERDICT = "the record of a refused row"


@dataclass
class Problem:
    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: field {self.field}: {self.message}"
