"""Text from outside made valid once, at the boundary.

JSON may spell a lone UTF-16 surrogate (`"\\ud800"`): Python decodes it into
a str that no UTF-8 writer accepts, so DuckDB, Parquet and the answer log
failed on it, and kept failing on every later run of the pair. Whatever
enters from a file or a service passes through `valid_text` (or
`valid_json` for a decoded object): a lone surrogate becomes U+FFFD, the
replacement character, and everything else is kept as it was.
"""

from __future__ import annotations

import re

_SURROGATE = re.compile(r"[\ud800-\udfff]")


def valid_text(text: str) -> str:
    """`text` as valid Unicode: each lone surrogate replaced by U+FFFD (a pair, if any, joined)."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def map_strings(value, change):
    """A decoded JSON value with `change` applied to every string in it, keys too."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [map_strings(v, change) for v in value]
    if isinstance(value, dict):
        return {change(k): map_strings(v, change) for k, v in value.items()}
    return value


def valid_json(value):
    """A decoded JSON value with every string in it (keys too) made valid."""
    return map_strings(value, valid_text)
