"""A full disk and a read-only warehouse: one line that says so, exit 1, and once space is back the
next run finishes with a whole warehouse. Real filesystems: a small tmpfs, then remounted."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import duckdb
import pytest

from tests.commands import env_for, ragpipe


@pytest.fixture()
def small_fs(tmp_path):
    mount = tmp_path / "fs"
    mount.mkdir()
    made = (
        os.geteuid() == 0
        and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=1500k", "tmpfs", str(mount)], capture_output=True
        ).returncode
        == 0
    )
    if not made:
        pytest.skip("needs root and mount(8) to make a small, then read-only, filesystem")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def _ragpipe(tmp_path: Path, warehouse: Path, *args):
    """`ragpipe ARGS` on the warehouse folder `warehouse` (the small file system), Dagster home in tmp."""
    (tmp_path / "dh").mkdir(exist_ok=True)
    return ragpipe({**env_for(tmp_path), "RAGPIPE_WAREHOUSE": str(warehouse)}, *args, timeout=300)


def _remount(mount: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(mount)], check=True, capture_output=True)


@pytest.mark.end_to_end
def test_a_full_disk_says_so_and_the_next_run_finishes(small_fs, tmp_path):
    full = _ragpipe(tmp_path, small_fs, "run", "--corpus", "demo", "--config", "default")
    assert full.returncode == 1
    assert "No space left on device" in full.stderr.splitlines()[-1]  # the last line says why
    _remount(small_fs, "size=100m")
    again = _ragpipe(tmp_path, small_fs, "run", "--corpus", "demo", "--config", "default")
    assert again.returncode == 0, again.stderr[-2000:]
    with duckdb.connect(str(small_fs / "ragpipe.duckdb"), read_only=True) as conn:
        answers, grades = (conn.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in ("answers", "grades"))
        torn = conn.execute(
            "SELECT count(*) FROM documents d LEFT JOIN (SELECT doc_id, count(*) AS n FROM pages GROUP BY ALL) p "
            "USING (doc_id) WHERE coalesce(p.n, 0) != d.pages"
        ).fetchall()[0][0]
    assert answers == grades == 31 and torn == 0


@pytest.mark.end_to_end
def test_a_read_only_warehouse_refuses_writers_and_serves_readers(small_fs, tmp_path):
    _remount(small_fs, "size=100m")
    assert _ragpipe(tmp_path, small_fs, "run", "--corpus", "demo", "--config", "default").returncode == 0
    _remount(small_fs, "ro")
    regrade = _ragpipe(tmp_path, small_fs, "regrade")
    assert regrade.returncode == 1 and "Traceback" not in regrade.stdout + regrade.stderr
    assert f"cannot write to the warehouse {small_fs}: Read-only file system" in regrade.stderr
    scorecard = _ragpipe(tmp_path, small_fs, "scorecard", "--json")
    assert scorecard.returncode == 0 and '"corpus": "demo"' in scorecard.stdout
