"""Where things live: the project root, the corpora folder and the warehouse.

Every path can be moved with an environment variable so tests and users can
point ragpipe at a scratch warehouse or their own corpora.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def corpora_dir() -> Path:
    return Path(os.environ.get("RAGPIPE_CORPORA", PROJECT_ROOT / "corpora"))


def warehouse_dir() -> Path:
    return Path(os.environ.get("RAGPIPE_WAREHOUSE", PROJECT_ROOT / "warehouse"))


def database_path() -> Path:
    return warehouse_dir() / "ragpipe.duckdb"


def rules_path() -> Path | None:
    """A user's grader rules file (RAGPIPE_RULES), else the packaged rules."""
    value = os.environ.get("RAGPIPE_RULES")
    return Path(value) if value else None


def judge_setting() -> tuple[str, str]:
    """The model judge to grade with (RAGPIPE_JUDGE: a `judges:` name; empty: none) and which verdicts
    it is asked about (RAGPIPE_JUDGE_ON: tentative or all)."""
    return os.environ.get("RAGPIPE_JUDGE", ""), os.environ.get("RAGPIPE_JUDGE_ON", "tentative")


def judges_path(corpora: Path | None = None) -> Path:
    """Where the model judges are configured (RAGPIPE_JUDGES: a YAML file with `judges:`), else beside
    the corpus configurations, configs.yaml in `corpora` (a project's own folder; default `corpora_dir()`)."""
    value = os.environ.get("RAGPIPE_JUDGES")
    return Path(value) if value else (corpora or corpora_dir()) / "configs.yaml"
