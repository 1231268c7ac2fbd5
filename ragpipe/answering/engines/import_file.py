"""Answers someone else produced, from a JSONL file: one line per answer,
`{"question_id", "answer", "citations", "latency_ms", "usage"}` (usage: {"prompt_tokens",
"completion_tokens"}, as the system reported them). A question the file
does not answer gets an error row, not a silent gap."""

from __future__ import annotations

from pathlib import Path

from ragpipe.answering.engines.base import EngineAnswer, RetrievalContext
from ragpipe.answering.engines.retrying import EngineFailure
from ragpipe.answering.engines.usage import usage_of
from ragpipe.corpus.questions import Question
from ragpipe.inputs.jsonl import read_jsonl
from ragpipe.inputs.problems import Problem


class ImportEngine:
    name = "import"

    def __init__(self, path: str, name: str | None = None):
        self.path = Path(path)
        self.problems: list[Problem] = []
        self.rows = {}
        for lineno, row in read_jsonl(self.path, self.problems):
            if not isinstance(row.get("question_id"), str) or not isinstance(row.get("answer"), str):
                self.problems.append(Problem(str(self.path), lineno, "question_id/answer", "missing or not a string"))
                continue
            self.rows.setdefault(row["question_id"], row)
        self.answer_set = name or f"import:{self.path.stem}"
        self.settings = {"path": str(self.path)}

    def answer(self, question: Question, context: RetrievalContext) -> EngineAnswer:
        row = self.rows.get(question.id)
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
