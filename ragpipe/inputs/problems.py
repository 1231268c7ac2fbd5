"""A problem with one row of input: file, line and field, in words.

Bad input costs the row it is on, not the file: loaders collect these and
carry on, and the warehouse keeps them as a table.
"""

from __future__ import annotations

from dataclasses import dataclass

# not hashed into the grader version (grading/version.py)
DECIDES_NO_VERDICT = "the record of a refused row"


MAX_MESSAGE_CHARS = 500  # a message echoes what the line held: a 5 MB question id is cut, not printed whole
MAX_FIELD_CHARS = 120  # a field's name may be any key of the line


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else f"{text[:most]}... [cut: {len(text):,} characters]"


@dataclass
class Problem:
    file: str
    line: int
    field: str
    message: str

    def __post_init__(self) -> None:
        self.field = _cut(str(self.field), MAX_FIELD_CHARS)
        self.message = _cut(str(self.message), MAX_MESSAGE_CHARS)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: field {self.field}: {self.message}"
