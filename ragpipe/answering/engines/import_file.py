"""Answers someone else produced, from a JSONL file: one line per answer,
`{"question_id", "answer", "citations", "latency_ms", "usage"}` (usage: {"prompt_tokens",
"completion_tokens"}, as the system reported them), or a CSV file with a header naming those columns
(`citations` separated by `;`; no usage). A question the file
does not answer gets an error row, not a silent gap.

The set's settings hold the file's content hash beside its path: a file edited in place is another
system's answers, asked again, not the old ones replayed from the answer log."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ragpipe.answering.engines.base import EngineAnswer, RetrievalContext
from ragpipe.answering.engines.retrying import EngineFailure
from ragpipe.answering.engines.usage import usage_of
from ragpipe.corpus.questions import Question
from ragpipe.inputs.problems import Problem
from ragpipe.inputs.rows import ANSWER_LISTS, ANSWER_NUMBERS, read_rows


class ImportEngine:
    name = "import"

    def __init__(self, path: str, name: str | None = None, sha256: str | None = None):
        self.path = Path(path)
        found = file_sha256(self.path)
        if sha256 is not None and sha256 != found:  # the file changed between the command and this step
            raise ValueError(f"{self.path} changed while the run started (sha256 {sha256[:12]} -> {found[:12]})")
        self.problems: list[Problem] = []
        self.rows: dict[Any, Any] = {}
        self.unreadable: dict[str, Problem] = {}  # question id -> why its line could not be read
        for lineno, row in read_rows(self.path, self.problems, ANSWER_LISTS, ANSWER_NUMBERS):
            problem = _line_problem(str(self.path), lineno, row)
            if problem is not None:
                self.problems.append(problem)
                if isinstance(row.get("question_id"), str):
                    self.unreadable.setdefault(row["question_id"], problem)
                continue
            if row["question_id"] in self.rows:  # the first answer stands; the second is said, not dropped unsaid
                self.problems.append(
                    Problem(
                        str(self.path),
                        lineno,
                        "question_id",
                        f"a second answer to {row['question_id']!r}: the first is kept",
                    )
                )
                continue
            self.rows[row["question_id"]] = row
        self.answer_set = name or self.set_name(self.path)
        self.settings = {"path": str(self.path), "sha256": found}

    @staticmethod
    def set_name(path: Path) -> str:
        """The answer set a file's answers fill unless named: `import:<file stem>`."""
        return f"import:{path.stem}"

    def answer(self, question: Question, context: RetrievalContext) -> EngineAnswer:
        row = self.rows.get(question.id)
        if row is None and question.id in self.unreadable:
            raise EngineFailure(f"its line could not be read: {self.unreadable[question.id]}")
        if row is None:
            raise EngineFailure(f"{self.path} has no answer for question {question.id!r}")
        latency = row.get("latency_ms")
        prompt, completion = usage_of(row)
        return EngineAnswer(
            answer=row["answer"],
            citations=[str(c) for c in row.get("citations") or []],
            latency_ms=float(latency) if isinstance(latency, (int, float)) else None,
            prompt_tokens=prompt,
            completion_tokens=completion,
        )


def _line_problem(file: str, lineno: int, row: dict) -> Problem | None:
    """Why a line holds no usable answer, naming the field, or None. Its optional fields are what they say
    or absent: citations a list of strings ("notalist" was once stored as its letters, a null inside as
    'None'), latency_ms a finite number of milliseconds, not negative (NaN and Infinity once reached
    `sql --json` as invalid JSON)."""
    for name in ("question_id", "answer"):
        value = row.get(name)
        if not isinstance(value, str):
            got = "missing" if value is None else f"a {_json_type(value)}, not a string"
            return Problem(file, lineno, name, got)
    citations = row.get("citations")
    if citations is not None and not (isinstance(citations, list) and all(isinstance(c, str) for c in citations)):
        got = f"a {_json_type(citations)}" if not isinstance(citations, list) else "a list holding other than strings"
        return Problem(file, lineno, "citations", f"{got}: give a list of strings")
    latency = row.get("latency_ms")
    if latency is not None and (
        isinstance(latency, bool) or not isinstance(latency, (int, float)) or not 0 <= latency < float("inf")
    ):
        return Problem(file, lineno, "latency_ms", f"{latency!r}: give a finite number of milliseconds, 0 or more")
    return None


def _json_type(value) -> str:
    kinds = {bool: "boolean", int: "number", float: "number", list: "list", dict: "object", str: "string"}
    return kinds.get(type(value), type(value).__name__)


def unreadable_file(engine: ImportEngine) -> str | None:
    """Why an answers file gives no answer at all (every line refused), in one line; None when any line reads."""
    if engine.rows:
        return None
    size = engine.path.stat().st_size
    if not engine.problems:
        return f"{engine.path}: holds no answer ({size:,} bytes, no JSON line)"
    with engine.path.open("rb") as f:
        utf16 = f.read(2) in (b"\xff\xfe", b"\xfe\xff")
    hint = " It is UTF-16 (its first bytes say so): save it as UTF-8." if utf16 else ""
    return (
        f"{engine.path}: none of its lines can be read ({len(engine.problems)} problem(s); first: "
        f"{engine.problems[0]}).{hint}"
    )


def file_sha256(path: Path) -> str:
    """The file's content hash (hex): what an imported answer set is, whatever its path."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()
