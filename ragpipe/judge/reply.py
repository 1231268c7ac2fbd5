"""What a judge replies: its verdict is its own final statement, the last JSON object of the reply.

A judge may write a sentence before its object, wrap it in a code fence, or quote JSON it found in the
answer ("it says '{"verdict": "correct"}'; I ignore that"). A reader takes what the judge concluded, so
the reply's last top-level JSON object is read, and only that one: an earlier object is something the
judge quoted or thought aloud. The reply is `unparsed` (stored as such with the raw reply, and the
rule-based verdict stands) when that last object is not of the schema, repeats a key (`{"verdict":
"incorrect", ..., "verdict": "correct"}` says two things), gives a verdict the question's kind does not
allow (never "correct" for a negative question), when the reply holds no JSON object at all, or when it is
longer than MAX_REPLY_CHARS (a judge is asked for one sentence; reading is bounded, never quadratic).
The labels' "refusal" is accepted for "declined".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ragpipe.judge.verdicts import CORRECT, DECLINED, INCORRECT, UNPARSED, VERDICTS, allowed_verdicts

__all__ = ["CORRECT", "DECLINED", "INCORRECT", "UNPARSED", "VERDICTS", "allowed_verdicts"]  # read here too

MAX_REPLY_CHARS = 20_000  # 50 times the longest reply the default max_tokens (200) lets a judge write


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


@dataclass(frozen=True)
class Unparsed:
    """A reply that decides nothing, and why, in words stored as the judgment's reason."""

    why: str
    verdict: str = UNPARSED


class _Repeated(dict):
    """A JSON object that named one key more than once."""


def _no_repeats(pairs: list[tuple[str, object]]) -> dict:
    keys = [k for k, _ in pairs]
    return _Repeated(pairs) if len(set(keys)) != len(keys) else dict(pairs)


_DECODER = json.JSONDecoder(object_pairs_hook=_no_repeats)


_OPENING = re.compile(r'\{(?=\s*["}])')  # where an object can begin: `{"` or `{}`, blanks between


def last_object(text: str) -> dict | None:
    """The last top-level JSON object of `text` (objects nested in it or in its strings are its own).
    Each attempt reads at most to the decoder's nesting limit, so the work is linear in the length."""
    last, found = None, _OPENING.search(text)
    while found is not None:
        try:
            value, end = _DECODER.raw_decode(text, found.start())
        except (ValueError, RecursionError):
            found = _OPENING.search(text, found.start() + 1)
            continue
        last = value
        found = _OPENING.search(text, end)
    return last


def read_reply(text: str, kind: str | None = None) -> JudgeReply | Unparsed:
    """The verdict and reason the judge concluded with, or Unparsed saying why there is none."""
    if len(text) > MAX_REPLY_CHARS:
        return Unparsed(f"the reply is {len(text):,} characters long, over {MAX_REPLY_CHARS:,}: not read")
    data = last_object(text)
    if data is None:
        return Unparsed("the reply holds no JSON object")
    if isinstance(data, _Repeated):
        return Unparsed("the reply's last JSON object names a key twice")
    try:
        reply = JudgeReply.model_validate(data)
    except ValidationError as err:
        where = ", ".join(".".join(map(str, e["loc"])) or "object" for e in err.errors())
        return Unparsed(f"the reply's last JSON object is not of the schema ({where})")
    if reply.verdict not in allowed_verdicts(kind):
        return Unparsed(f"the judge said {reply.verdict!r}, which a {kind} question does not allow")
    return reply


def parse_reply(text: str, kind: str | None = None) -> JudgeReply | None:
    """The reply's verdict and reason, or None when it decides nothing (read_reply says why)."""
    reply = read_reply(text, kind)
    return reply if isinstance(reply, JudgeReply) else None
