"""The judge's prompts: versioned files in the repository, one per question kind.

`prompts/system.txt` says what to reply (one JSON object); `answerable.txt`, `negative.txt` and
`ambiguous.txt` say what counts as correct for that kind. Their hash is part of the judge's identity:
editing a prompt is a new judge, asked again.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from ragpipe.corpus.kinds import KINDS as QUESTION_KINDS

FOLDER = Path(__file__).with_name("prompts")
KINDS = QUESTION_KINDS


@cache
def prompt_text(name: str) -> str:
    return (FOLDER / f"{name}.txt").read_text(encoding="utf-8")


@cache
def prompts_hash() -> str:
    digest = hashlib.sha256()
    for name in ("system", *KINDS):
        digest.update(name.encode() + b"\0" + prompt_text(name).encode() + b"\0")
    return digest.hexdigest()[:12]


def messages(kind: str, question: str, gold: str, answer: str) -> list[dict]:
    """The chat messages that ask the judge about one answer. The answer is the system under test's
    text, so it goes in as one JSON string: whatever it holds (a line that looks like the prompt's own,
    an instruction, a verdict in JSON) stays inside the string, data to grade."""
    data = json.dumps(answer, ensure_ascii=False)
    user = prompt_text(kind).format(question=question, gold=gold or "(none)", answer=data)
    return [{"role": "system", "content": prompt_text("system").strip()}, {"role": "user", "content": user}]
