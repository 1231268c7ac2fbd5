"""The stages, declared once: which assets each reads, from which the assets' deps, the jobs' selections
and the one-run regrade's chain and provenance are made.

The chain was written three times (each asset's `deps`, the name lists of assets/deploy/jobs.py, the chain
and inputs of assets/regrade/over_pairs.py, which imported the definitions at run time to read the graph:
the house's one circle). The bodies stay with their domains; this table is what everyone reads.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Literal

from dagster import AssetSpec, Definitions, PreviewWarning

# Definitions.map_asset_specs is marked preview in Dagster 1.13; it is the documented way to change a loaded
# definitions' specs (here, their code versions as the definitions load), and dagster.map_asset_specs does
# the same over a list of assets without the warning
warnings.filterwarnings("ignore", category=PreviewWarning, message=r".*map_(resolved_)?asset_specs.*")

CORPUS_LEVEL = ("documents", "pages", "failed_documents", "questions", "question_problems", "needles")
ANSWERING = ("chunks", "chunk_index", "retrieval", "answers")


@dataclass(frozen=True)
class Stage:
    """An asset after the answers: what it reads, and what it commits, in words (`ragpipe regrade` says it)."""

    asset: str
    inputs: tuple[str, ...]
    commits: str
    versioned_by: Literal["rules", "grader"] | None = "grader"  # its code version: a change of it stales it


# in the order the regrade runs them: each after everything it reads
GRADING = (
    Stage("rule_verdicts", ("answers", "questions", "needles"), "rule verdicts", "rules"),
    Stage("judgments", ("rule_verdicts", "answers", "questions"), "judgments", None),
    Stage("grades", ("rule_verdicts", "judgments", "answers", "questions"), "grades and their history"),
    Stage(
        "scorecards",
        ("grades", "answers", "retrieval", "documents", "failed_documents", "question_problems"),
        "scorecards",
    ),
    Stage("agreement", ("grades", "answers", "questions"), "agreement"),
    Stage("grade_delta", ("grades",), "the delta"),
    Stage("review_report", ("scorecards", "agreement", "grade_delta"), "the review report"),
)
STAGE = {stage.asset: stage for stage in GRADING}
GRADED = tuple(stage.asset for stage in GRADING)
# what a regrade reads and never writes: held for its run, each partition read once
READ_BY_GRADING = tuple(sorted({i for stage in GRADING for i in stage.inputs} - set(GRADED)))
# people's labels changed, the grades did not: scorecards (people's accuracy) and what reads them
RESCORED = ("scorecards", "agreement", "review_report")


def deps(asset: str) -> list[str]:
    """The assets `asset` reads, as its definition declares them."""
    return list(STAGE[asset].inputs)


def code_version(asset: str, versions: dict[str, str]) -> str | None:
    """`asset`'s code version under `versions` (assets/shared/versions.py: grader_versions): the rules' for the
    rule verdicts (the judge is not theirs), the grader's for what is graded or computed from grades, none for
    the judgments (keyed by their inputs)."""
    kind = STAGE[asset].versioned_by
    return None if kind is None else versions[kind]


def with_code_versions(defs: Definitions, versions: dict[str, str]) -> Definitions:
    """`defs` with each grading stage's code version set from `versions`: given as the definitions load, not
    at import, so one load reads the grader once (assets/definitions.py)."""

    def versioned(spec: AssetSpec) -> AssetSpec:
        asset = spec.key.to_user_string()
        return spec.replace_attributes(code_version=code_version(asset, versions)) if asset in STAGE else spec

    return defs.map_asset_specs(func=versioned)


def by_corpus(asset: str) -> bool:
    """Whether `asset` is partitioned by corpus (else by corpus and configuration)."""
    return asset in CORPUS_LEVEL
