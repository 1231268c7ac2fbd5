"""`ragpipe.compare`'s answer: the comparison as a mapping (`result["diff"]`, `dict(result)`), with the one
sentence `ragpipe compare` prints (`summary()`, and its `repr`): a bare `-0.3333` says nothing of which
system, on how many questions, or how sure."""

from __future__ import annotations

from dataclasses import dataclass

from ragpipe.grading.report_mapping import ReportMapping
from ragpipe.scoring.compare import compare_line


@dataclass(frozen=True, repr=False, eq=False)
class CompareResult(ReportMapping):
    """B against A, paired by question (scoring/compare.py); `summary()` is `ragpipe compare`'s line."""

    where: str = "the questions given"

    @property
    def diff(self) -> float | None:
        """B's accuracy less A's."""
        return self.data["diff"]

    def summary(self) -> str:
        return compare_line(self.data, self.where)

    def __repr__(self) -> str:
        return self.summary()
