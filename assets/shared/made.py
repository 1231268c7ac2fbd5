"""What one stage made for one pair: its metadata and data version, whoever records it.

A stage's body is a function of (warehouse, project, pair, log, run id) returning `Made`. The asset
returns it as its MaterializeResult; the one-run regrade (`assets/regrade/`) records it as a
materialization of the pair's partition. One body, two ways to be recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dagster import AssetCheckResult, DataVersion, MaterializeResult


@dataclass
class Checked:
    """An asset check's result on what the stage made (`name`: the check's)."""

    name: str
    result: AssetCheckResult


@dataclass
class Made:
    metadata: dict
    data_version: DataVersion | None = None
    checks: list[Checked] = field(default_factory=list)

    def result(self) -> MaterializeResult:
        return MaterializeResult(metadata=self.metadata, data_version=self.data_version)
