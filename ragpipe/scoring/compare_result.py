"""`ragpipe.compare`'s answer: the comparison as a mapping (`result["diff"]`, `dict(result)`), with the one
sentence `ragpipe compare` prints (`summary()`, and its `repr`): a bare `-0.3333` says nothing of which
system, on how many questions, or how sure."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ragpipe.scoring.compare import compare_line


@dataclass(frozen=True)
class CompareResult(Mapping):
    """B against A, paired by question (scoring/compare.py); `summary()` is `ragpipe compare`'s line."""

    result: dict
    where: str = "the questions given"

    def __getitem__(self, key: str):
        return self.result[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.result)

    def __len__(self) -> int:
        return len(self.result)

    def summary(self) -> str:
        return compare_line(self.result, self.where)

    def __repr__(self) -> str:
        return self.summary()
