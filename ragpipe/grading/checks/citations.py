"""The citation check: an answer that cites documents must cite a golden one to be correct (an answer
that cites nothing is not penalised). Citation markers ("[1]") are blanked before any other check
reads the answer, so their digits are never figures."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, field_validator

from ragpipe.grading import outcomes
from ragpipe.grading.checks.view import AnswerView, Check, Finding
from ragpipe.grading.patterns import valid_regex

if TYPE_CHECKING:
    from ragpipe.grading.rules import Rules


class Citations(BaseModel):
    """rules.yaml `citations`."""

    model_config = ConfigDict(extra="forbid")
    require_golden_when_cited: bool = True
    marker_pattern: str = r"\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\]"

    @field_validator("marker_pattern")
    @classmethod
    def _compiles(cls, v: str) -> str:
        return valid_regex(v)


@lru_cache(maxsize=8)
def _marker(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def blank_citations(answer: str, rules: Rules) -> str:
    """Citation markers like [1] (`citations.marker_pattern`) replaced by spaces: offsets stay valid,
    "[1]" is no figure."""
    return _marker(rules.citations.marker_pattern).sub(lambda m: " " * len(m.group(0)), answer)


def run(view: AnswerView) -> Finding | None:
    golden = view.question.golden_docs
    if not view.citations or not view.rules.citations.require_golden_when_cited or not golden:
        return None
    if set(view.citations) & set(golden):
        return None
    return Finding("citations", "partial", outcomes.NOT_GOLDEN_CITATION, outcomes.CITATIONS_NOT_GOLDEN)


CHECK = Check("citations", "citations", run, "cites documents, none of them golden")
