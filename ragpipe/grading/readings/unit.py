"""One reading, declared by its module as `READING`: what the checks see of an answer, switchable.

A reading that `read`s gives the checks a value through the view (`AnswerView.reading(id)`), made at most
once an answer from the view and its own rules slice; switched off, the checks see `absent(view)`
instead: what they would read if the reading did not exist. A reading applied before the view is made
(the repair) or inside it (voice, unasserted) declares where (`applied_in`) and reads `view.off` there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from ragpipe.grading.sections import AnyRules

if TYPE_CHECKING:
    from pydantic import BaseModel


@dataclass(frozen=True)
class Reading:
    """`id` shares the checks' namespace (`grade(..., off={id})`); `sections`: the rules.yaml sections it
    owns (name -> pydantic model; `Rules` is assembled from them as from the checks'); `reads`: sections
    it reads and does not own; `read(view, rules)` and `absent(view)`: the value with it on and off."""

    id: str
    summary: str
    sections: dict[str, type[BaseModel]] = field(default_factory=dict)
    reads: tuple[str, ...] = ()
    read: Callable[[Any, SimpleNamespace], Any] | None = None
    absent: Callable[[Any], Any] | None = None
    applied_in: str = ""  # where a reading without `read` is applied, reading `off` itself

    def __post_init__(self) -> None:
        if (self.read is None) != (self.absent is None) or (self.read is None) == (not self.applied_in):
            raise TypeError(f"reading {self.id!r}: give read and absent, or say where it is applied (applied_in)")

    def rules_of(self, rules: AnyRules) -> SimpleNamespace:
        """The reading's own slice of the rules: its sections and those it reads, nothing else."""
        return SimpleNamespace(**{name: getattr(rules, name) for name in (*self.sections, *self.reads)})
