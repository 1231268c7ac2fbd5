"""The citation check: an answer that cites documents must cite a golden one to be correct (an answer
that cites nothing is not penalised). Citation markers ("[1]", `marker_pattern`) are blanked before any check
reads the answer (text/citations.py), so their digits are never figures."""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, ConfigDict, field_validator

from ragpipe.grading import outcomes
from ragpipe.grading.checks.view import AnswerView, Check, Finding
from ragpipe.grading.grade import Verdict
from ragpipe.text.patterns import valid_regex


class Citations(BaseModel):
    """rules.yaml `citations`."""

    model_config = ConfigDict(extra="forbid")
    require_golden_when_cited: bool = True
    marker_pattern: str = r"\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\]"

    @field_validator("marker_pattern")
    @classmethod
    def _compiles(cls, v: str) -> str:
        return valid_regex(v)


class CitationRules(Protocol):
    citations: Citations


def run(view: AnswerView, rules: CitationRules) -> Finding | None:
    if not rules.citations.require_golden_when_cited:
        return None
    if set(view.citations) & set(view.question.golden_docs):
        return None
    return Finding("citations", Verdict.PARTIAL, outcomes.NOT_GOLDEN_CITATION, outcomes.CITATIONS_NOT_GOLDEN)


CHECK = Check(
    "citations",
    run,
    "cites documents, none of them golden",
    order=60,
    needs=("citations", "golden_docs"),
    sections={"citations": Citations},
    rules=(outcomes.CITATIONS_NOT_GOLDEN,),
)
