"""Shards: a pair's questions split by a stable hash of the question id.

A team with 100,000 questions or a slow model fans answering and grading out
over many processes (or pods). Each shard reads its inputs from Parquet and
writes its output to Parquet; one consolidating step stores the union in
DuckDB, so the warehouse keeps its single writer. Sharding never changes a
result: the consolidated rows are sorted exactly as one process sorts them.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ragpipe.warehouse.tables import write_parquet_file


def shard_of(question_id: str, shards: int) -> int:
    """The shard of a question: sha256, not Python's hash(), so every process agrees."""
    return int.from_bytes(hashlib.sha256(question_id.encode()).digest()[:8], "big") % shards


def split(frame: pd.DataFrame, shards: int) -> list[pd.DataFrame]:
    """`frame` cut into `shards` frames by question id (some may be empty)."""
    which = frame["question_id"].map(lambda q: shard_of(q, shards)) if len(frame) else pd.Series(dtype=int)
    return [frame[which == k].reset_index(drop=True) for k in range(shards)]


def work_dir(root: Path, stage: str, corpus: str, config: str, run_id: str) -> Path:
    """Where one run's shards of one stage exchange Parquet files (`config` "" for a corpus-level stage)."""
    folder = root / "shards" / stage / f"corpus={corpus}"
    return (folder / f"config={config}" if config else folder) / f"run={run_id}"


def write(frame: pd.DataFrame, path: Path) -> str:
    return str(write_parquet_file(frame, path))


def read(path: str | Path) -> pd.DataFrame:
    return pq.read_table(path).to_pandas()


def consolidate(paths: list[str], sort_by: list[str]) -> pd.DataFrame:
    """The union of the shard outputs, in the order one process would have produced, with the column
    types one table of all the rows would have: Arrow promotes a shard's all-null column to its
    siblings' type, so four shards store the same bytes as one (pandas' concat made such a column
    `object` where one shard made it `str`)."""
    tables = [pq.read_table(p) for p in sorted(paths)]
    if not tables:
        return pd.DataFrame()
    frame = pa.concat_tables(tables, promote_options="permissive").to_pandas()
    return frame.sort_values(sort_by, kind="stable").reset_index(drop=True) if len(frame) else frame


def clean(folder: Path) -> None:
    """Remove a run's exchange folder once its shards are stored."""
    shutil.rmtree(folder, ignore_errors=True)


def clean_stale(root: Path, stage: str, corpus: str, config: str, current_run: str, is_live) -> list[str]:
    """Remove the exchange folders other runs of this stage and pair left behind (a killed run's
    shards); `is_live(run_id)` says whether a run may still be using its folder. Returns what went."""
    parent = work_dir(root, stage, corpus, config, current_run).parent
    gone = []
    for folder in sorted(parent.glob("run=*")) if parent.is_dir() else []:
        run_id = folder.name.removeprefix("run=")
        if run_id != current_run and not is_live(run_id):
            clean(folder)
            gone.append(run_id)
    return gone
