"""How much memory DuckDB may take: a limit ragpipe sets on every connection, and where it spills past it.

Unset, DuckDB takes up to 80% of the machine's memory for one query's buffers. Every connection ragpipe opens gets `memory_limit` from RAGPIPE_DUCKDB_MEMORY (default
1GB: a laptop's share, docs/performance.md) and a `temp_directory` inside the warehouse folder, where a
query larger than the limit spills and finishes instead of failing or swapping.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ragpipe.warehouse.setting_refused import SettingRefused

DEFAULT_MEMORY = "1GB"
_SIZE = re.compile(r"(?P<number>\d+(\.\d+)?)\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)", re.IGNORECASE)
SPILL_FOLDER = "duckdb_tmp"


def memory_limit(env=os.environ) -> str:
    """RAGPIPE_DUCKDB_MEMORY as DuckDB reads a size ("1GB", "512MB"); anything else refused in a line."""
    value = env.get("RAGPIPE_DUCKDB_MEMORY", DEFAULT_MEMORY).strip()
    size = _SIZE.fullmatch(value)
    if size is None or float(size.group("number")) <= 0:
        raise SettingRefused(f"RAGPIPE_DUCKDB_MEMORY={value!r}: give a size DuckDB reads, such as 1GB or 512MB")
    return value


def duckdb_settings(database: Path) -> dict[str, str | bool | int | float | list[str]]:
    """The settings every connection to `database` opens with: the memory limit, and a spill folder beside it."""
    return {"memory_limit": memory_limit(), "temp_directory": str(database.parent / SPILL_FOLDER)}
