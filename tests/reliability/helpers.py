"""Run the real `ragpipe` command in its own process, against a scratch warehouse."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

RAGPIPE = str(Path(sys.executable).parent / "ragpipe")


def env_for(tmp: Path, **extra: str) -> dict:
    return {**os.environ, "RAGPIPE_WAREHOUSE": str(tmp / "wh"), "DAGSTER_HOME": str(tmp / "dh"), **extra}


def ragpipe(env: dict, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([RAGPIPE, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def start(env: dict, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [RAGPIPE, *args], env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
