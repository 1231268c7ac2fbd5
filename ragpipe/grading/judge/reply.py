"""What a judge replies: one JSON object of a fixed schema, or it is recorded as unparsed.

A model may wrap the object in a code fence or a sentence; the first `{...}` holding a verdict is
read. Anything else is `unparsed`: stored as such (the raw reply kept), and the rule-based verdict
stands. The labels' "refusal" is accepted for "declined".
"""

from __future__ import annotations

import json
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

CORRECT, INCORRECT, DECLINED, UNPARSED = "correct", "incorrect", "declined", "unparsed"
VERDICTS = (CORRECT, INCORRECT, DECLINED)
_OBJECT = re.compile(r"\{.*?\}", re.S)


class JudgeReply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    verdict: Literal["correct", "incorrect", "declined"]
    reason: str = Field("", max_length=2000)

    @field_validator("verdict", mode="before")
    @classmethod
    def _refusal(cls, value):
        if isinstance(value, str):
            value = value.strip().lower()
            return DECLINED if value == "refusal" else value
        return value


def parse_reply(text: str) -> JudgeReply | None:
    """The reply's verdict and reason, or None when no JSON object of the schema is in it."""
    for candidate in [text.strip(), *(m.group(0) for m in _OBJECT.finditer(text))]:
        try:
            data = json.loads(candidate)
        except (ValueError, RecursionError):
            continue
        if not isinstance(data, dict):
            continue
        try:
            return JudgeReply.model_validate(data)
        except ValidationError:
            continue
    return None
