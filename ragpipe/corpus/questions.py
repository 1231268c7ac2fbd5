"""Questions, validated at the boundary with pydantic.

`kind` decides what counts as right: `answerable` (the answer is in the
corpus), `negative` (it is not: declining is correct) or `ambiguous` (a
correct answer or an honest decline both count). Golden pages are 1-indexed.

Reading a question file yields the valid questions *and* a problem per bad
row (file, line, field, message), so one malformed line costs one question,
not the corpus; `load_questions` is the strict form that refuses the file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pandas as pd
import yaml
from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ragpipe.inputs.problems import Problem
from ragpipe.inputs.rows import read_rows
from ragpipe.inputs.text import valid_json
from ragpipe.inputs.yaml_text import load_yaml
from ragpipe.text.figures import parse_figure
from ragpipe.text.repair import repaired

Kind = Literal["answerable", "negative", "ambiguous"]

QUESTION_COLUMNS = [
    "corpus",
    "question_id",
    "text",
    "kind",
    "question_type",
    "gold_answer",
    "golden_docs",
    "golden_pages",
    "must_contain",
    "must_contain_any",
    "must_not_contain",
    "money_key",
    "polarity",
    "evidence",
]
PROBLEM_COLUMNS = ["corpus", "file", "line", "field", "message"]


class QuestionError(ValueError):
    """A question file that cannot be loaded, naming file, line and field."""


class Evidence(BaseModel):
    """A passage the gold answer rests on, as the upstream dataset gives it."""

    model_config = ConfigDict(extra="forbid")
    doc_id: str
    page: int | None = Field(None, ge=1, description="1-indexed")
    text: str


# a yes/no question opens with its verb, perhaps after a leading phrase ("Looking at VaR, did the risk ...")
_YES_NO_QUESTION = re.compile(
    r"^\W*(?:[^,?]{1,60},\s*)?(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b", re.I
)
_LEADING_YES_NO = re.compile(r"^\W*(yes|no)\b", re.I)


def polarity_of(question: str, answer: str) -> Literal["yes", "no"] | None:
    """A yes/no question whose gold answer opens with Yes or No: that word is its key."""
    m = _LEADING_YES_NO.match(answer)
    if m and _YES_NO_QUESTION.match(question):
        return "yes" if m.group(1).lower() == "yes" else "no"
    return None


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    text: str = Field(min_length=1, validation_alias=AliasChoices("text", "question"))
    kind: Kind = "answerable"
    question_type: str | None = None
    gold_answer: str = ""
    golden_docs: list[str] = Field(default_factory=list)
    golden_pages: dict[str, list[int]] = Field(default_factory=dict, description="doc id -> 1-indexed pages")
    must_contain: list[str] = Field(default_factory=list)
    must_contain_any: list[str] = Field(default_factory=list)
    must_not_contain: list[str] = Field(default_factory=list)
    money_key: str | None = None
    polarity: Literal["yes", "no"] | None = Field(None, description="the answer to a yes/no question")
    evidence: list[Evidence] = Field(default_factory=list)

    @field_validator("text", "gold_answer", "money_key")
    @classmethod
    def _as_written(cls, value: str | None) -> str | None:
        """Encoding damage repaired before anything reads it ("JosÃ© Saramago" is "José Saramago")."""
        return repaired(value) if value else value

    @field_validator("must_contain", "must_contain_any", "must_not_contain")
    @classmethod
    def _forms_as_written(cls, value: list[str]) -> list[str]:
        return [repaired(v) for v in value]

    @model_validator(mode="before")
    @classmethod
    def _accepted_forms(cls, data: Any) -> Any:
        """A gold answer given as a list of accepted forms: the first is the gold text, and each form (a
        bare Yes or No aside: that is the polarity) is a needle any one of which carries the key."""
        if not isinstance(data, dict) or not isinstance(data.get("gold_answer"), list):
            return data
        forms = data["gold_answer"]
        if not forms or any(not isinstance(f, str) or not f.strip() for f in forms):
            raise ValueError("gold_answer: a list of accepted forms needs at least one, none blank")
        needles = list(data.get("must_contain_any") or [])
        kept = [f for f in forms if f.strip().lower().rstrip(".") not in ("yes", "no") and f not in needles]
        return {**data, "gold_answer": forms[0], "must_contain_any": needles + kept}

    @model_validator(mode="after")
    def _polarity_from_gold(self) -> Question:
        """A yes/no question whose gold answer opens with Yes or No has that polarity unless one is given:
        every reader (corpus files, `grade`, labelled answers, `ragpipe.evaluate`) derives it the same way."""
        if self.polarity is None:
            self.polarity = polarity_of(self.text, self.gold_answer)
        return self

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


@dataclass
class LoadedQuestions:
    questions: list[Question]
    problems: list[Problem]


def validation_problems(err: ValidationError, file: str, line: int) -> list[Problem]:
    return [Problem(file, line, ".".join(map(str, e["loc"])) or "(row)", e["msg"]) for e in err.errors()]


def _line_of(text: str, question_index: int) -> int:
    """Line number of the n-th `- id:` item of a YAML question list (0 if not found)."""
    seen = -1
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("- id:"):
            seen += 1
            if seen == question_index:
                return lineno
    return 0


# a CSV question file's list columns: their items separated by `;` (inputs/rows.py)
CSV_LISTS = ("golden_docs", "must_contain", "must_contain_any", "must_not_contain")


def _rows(path: Path) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """(line, raw row) pairs of a YAML, JSONL or CSV question file, plus problems."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        return [], [Problem(str(path), line, "(file)", f"not UTF-8 text (byte {exc.start})")]
    except OSError as exc:
        return [], [Problem(str(path), 0, "(file)", f"cannot read: {exc.strerror}")]
    if path.suffix in (".jsonl", ".csv"):
        problems: list[Problem] = []
        return read_rows(path, problems, lists=CSV_LISTS), problems
    try:
        data = valid_json(load_yaml(text))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return [], [Problem(str(path), mark.line + 1 if mark else 0, "(file)", f"invalid YAML: {exc}")]
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        return [], [Problem(str(path), 1, "questions", "expected a list of questions")]
    return [(_line_of(text, i), raw) for i, raw in enumerate(data["questions"])], []


def read_questions(path: Path, known_docs: set[str] | None = None) -> LoadedQuestions:
    """Every valid question of `path`; each bad row becomes a Problem instead."""
    rows, problems = _rows(path)
    loaded = questions_from_rows(rows, str(path), known_docs)
    return LoadedQuestions(loaded.questions, sorted(problems + loaded.problems, key=lambda p: p.line))


def questions_from_rows(rows, source: str, known_docs: set[str] | None = None) -> LoadedQuestions:
    """Every valid question of (line, raw row) pairs read from `source`; each bad row becomes a Problem."""
    problems: list[Problem] = []
    questions: list[Question] = []
    seen: set[str] = set()
    path = source
    for lineno, raw in rows:
        if not isinstance(raw, dict):
            problems.append(Problem(str(path), lineno, "(row)", "expected a mapping"))
            continue
        try:
            q = Question.model_validate(raw)
        except ValidationError as err:
            problems.extend(validation_problems(err, str(path), lineno))
            continue
        if q.id in seen:
            problems.append(Problem(str(path), lineno, "id", f"duplicate question id {q.id!r}"))
            continue
        missing = [d for d in q.golden_docs if known_docs is not None and d not in known_docs]
        if missing:
            problems.append(
                Problem(str(path), lineno, "golden_docs", f"question {q.id!r} names unknown document(s) {missing}")
            )
            continue
        seen.add(q.id)
        questions.append(q)
    return LoadedQuestions(questions, sorted(problems, key=lambda p: p.line))


def load_questions(path: Path, known_docs: set[str] | None = None) -> list[Question]:
    """Strict: the questions of `path`, or QuestionError naming the first problem."""
    loaded = read_questions(path, known_docs)
    if loaded.problems:
        raise QuestionError(str(loaded.problems[0]))
    return loaded.questions


def questions_frame(corpus: str, questions: list[Question]) -> pd.DataFrame:
    rows = [
        [
            corpus,
            q.id,
            q.text,
            q.kind,
            q.question_type,
            q.gold_answer,
            q.golden_docs,
            json.dumps(q.golden_pages, sort_keys=True),
            q.must_contain,
            q.must_contain_any,
            q.must_not_contain,
            q.money_key,
            q.polarity,
            json.dumps([e.model_dump() for e in q.evidence]),
        ]
        for q in questions
    ]
    return pd.DataFrame(rows, columns=QUESTION_COLUMNS)


def problems_frame(corpus: str, problems: list[Problem]) -> pd.DataFrame:
    return pd.DataFrame(
        [[corpus, p.file, p.line, p.field, p.message] for p in problems], columns=PROBLEM_COLUMNS
    ).astype({"corpus": str, "file": str, "line": "int64", "field": str, "message": str})


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None  # SQL NULL comes back as NaN/None


def question_from_row(row: dict) -> Question:
    """Back from a warehouse row to the model the grader and engines take."""
    return Question(
        id=row["question_id"],
        text=row["text"],
        kind=row["kind"],
        question_type=_text(row.get("question_type")),
        gold_answer=row["gold_answer"],
        golden_docs=list(row["golden_docs"]),
        golden_pages=json.loads(row["golden_pages"] or "{}"),
        must_contain=list(row["must_contain"]),
        must_contain_any=list(row["must_contain_any"]),
        must_not_contain=list(row["must_not_contain"]),
        money_key=_text(row["money_key"]),
        polarity=_text(row.get("polarity")),
        evidence=json.loads(row.get("evidence") or "[]"),
    )
