"""Questions, validated at the boundary with pydantic.

`kind` decides what counts as right: `answerable` (the answer is in the
corpus), `negative` (it is not: declining is correct) or `ambiguous` (a
correct answer or an honest decline both count). Golden pages are 1-indexed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import pandas as pd
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ragpipe.figures import parse_figure

Kind = Literal["answerable", "negative", "ambiguous"]

QUESTION_COLUMNS = [
    "corpus", "question_id", "text", "kind", "gold_answer", "golden_docs", "golden_pages",
    "must_contain", "must_contain_any", "must_not_contain", "money_key",
]


class QuestionError(ValueError):
    """A question file that cannot be loaded, naming file, line and field."""


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    kind: Kind
    gold_answer: str = ""
    golden_docs: list[str] = Field(default_factory=list)
    golden_pages: dict[str, list[int]] = Field(default_factory=dict, description="doc id -> 1-indexed pages")
    must_contain: list[str] = Field(default_factory=list)
    must_contain_any: list[str] = Field(default_factory=list)
    must_not_contain: list[str] = Field(default_factory=list)
    money_key: str | None = None

    @field_validator("money_key")
    @classmethod
    def _money_key_is_one_figure(cls, value: str | None) -> str | None:
        if value is not None:
            parse_figure(value)  # raises ValueError with the reason
        return value

    @field_validator("golden_pages")
    @classmethod
    def _pages_are_one_indexed(cls, value: dict[str, list[int]]) -> dict[str, list[int]]:
        for doc, pages in value.items():
            if any(p < 1 for p in pages):
                raise ValueError(f"pages of {doc!r} must be 1-indexed (>= 1)")
        return value


def _line_of(text: str, question_index: int) -> int:
    """Best-effort line number of the n-th `- id:` item of a YAML question list."""
    seen = -1
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("- id:"):
            seen += 1
            if seen == question_index:
                return lineno
    return 0


def _validate(raw: dict, where: str) -> Question:
    try:
        return Question.model_validate(raw)
    except ValidationError as err:
        fields = "; ".join(f"field {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors())
        raise QuestionError(f"{where}: {fields}") from err


def load_questions(path: Path) -> list[Question]:
    """Questions from a YAML file (`questions: [...]`) or JSONL (one per line)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise QuestionError(f"{path}: not UTF-8 text (byte {exc.start})") from exc
    out: list[Question] = []
    if path.suffix == ".jsonl":
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as exc:
                raise QuestionError(f"{path}:{lineno}: invalid JSON: {exc.msg}") from exc
            out.append(_validate(raw, f"{path}:{lineno}"))
    else:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise QuestionError(f"{path}: invalid YAML: {exc}") from exc
        if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
            raise QuestionError(f"{path}: field questions: expected a list of questions")
        for i, raw in enumerate(data["questions"]):
            out.append(_validate(raw, f"{path}:{_line_of(text, i)}"))
    seen: set[str] = set()
    for q in out:
        if q.id in seen:
            raise QuestionError(f"{path}: field id: duplicate question id {q.id!r}")
        seen.add(q.id)
    return out


def check_documents(questions: list[Question], known_docs: set[str], path: Path) -> None:
    """Every golden document a question names must be in the corpus."""
    for q in questions:
        missing = [d for d in q.golden_docs if d not in known_docs]
        if missing:
            raise QuestionError(f"{path}: question {q.id!r} field golden_docs: unknown document(s) {missing}")


def questions_frame(corpus: str, questions: list[Question]) -> pd.DataFrame:
    rows = [
        [
            corpus, q.id, q.text, q.kind, q.gold_answer, q.golden_docs, json.dumps(q.golden_pages, sort_keys=True),
            q.must_contain, q.must_contain_any, q.must_not_contain, q.money_key,
        ]
        for q in questions
    ]
    return pd.DataFrame(rows, columns=QUESTION_COLUMNS)


def question_from_row(row: dict) -> Question:
    """Back from a warehouse row to the model the grader and engines take."""
    return Question(
        id=row["question_id"], text=row["text"], kind=row["kind"], gold_answer=row["gold_answer"],
        golden_docs=list(row["golden_docs"]), golden_pages=json.loads(row["golden_pages"] or "{}"),
        must_contain=list(row["must_contain"]), must_contain_any=list(row["must_contain_any"]),
        must_not_contain=list(row["must_not_contain"]),
        money_key=row["money_key"] if isinstance(row["money_key"], str) else None,  # SQL NULL comes back as NaN
    )
