"""A rule's regular expression, checked once where rules are read: it compiles and it matches some text."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field


def valid_regex(pattern: str) -> str:
    """A rule's regex, refused if invalid or if it matches the empty string (it would match at every
    position of every answer: `pattern: ""` looped the grader until memory ran out)."""
    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"invalid regex {pattern!r}: {exc}") from exc
    if compiled.search("") is not None:
        raise ValueError(f"regex {pattern!r} matches the empty string: a rule must match some text")
    return pattern


Regex = Annotated[str, AfterValidator(valid_regex)]  # a rules field that is a regex, checked as it is read


class DeclinePattern(BaseModel):
    """A regex with the reason it is a rule (declines, and the questions that ask for a figure)."""

    model_config = ConfigDict(extra="forbid")
    pattern: Regex
    reason: str = Field(min_length=1)
    conclusive: bool = False  # the answerer gives up on the answer: figures before it are inputs, not answers
