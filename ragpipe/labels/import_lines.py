"""`ragpipe labels import FILE.jsonl`: people's labels from a file, each line checked against the
warehouse. A bad line is reported as file:line:field and skipped; the rest are imported.

A line: {"corpus": "demo", "config": "default", "answer_set": "extractive", "question_id": "q01",
"label": "correct", "labeller": "ana", "note": "..."} (labeller and note optional).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

import duckdb
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragpipe.corpus.questions import validation_problems
from ragpipe.inputs.jsonl import read_jsonl
from ragpipe.inputs.problems import Problem
from ragpipe.labels.record import HumanLabelRecord
from ragpipe.labels.store import current_answers
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.tables import table_exists


class LabelLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    corpus: str = Field(min_length=1)
    config: str = Field(min_length=1)
    answer_set: str = Field(min_length=1)
    question_id: str = Field(min_length=1)
    label: Literal["correct", "incorrect", "refusal"]
    labeller: str = Field("unknown", min_length=1, max_length=100)
    note: str | None = Field(None, max_length=2000)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def read_label_lines(conn: duckdb.DuckDBPyConnection, path: Path) -> tuple[list[HumanLabelRecord], list[Problem]]:
    """The labels of `path` that name an answer the warehouse holds, and a problem for every other line."""
    problems: list[Problem] = []
    rows: list[HumanLabelRecord] = []
    pairs: dict[tuple[str, str], dict[tuple[str, str], dict]] = {}
    have_answers = table_exists(conn, "answers")
    when = now_iso()
    for lineno, raw in read_jsonl(path, problems):
        try:
            line = LabelLine.model_validate(raw)
        except ValidationError as err:
            problems.extend(validation_problems(err, str(path), lineno))
            continue
        pair = (line.corpus, line.config)
        if pair not in pairs:
            frame = current_answers(conn, *pair) if have_answers else None
            pairs[pair] = {} if frame is None else {(r["answer_set"], r["question_id"]): r for r in records(frame)}
        answer = pairs[pair].get((line.answer_set, line.question_id))
        if answer is None:
            said = f"no answer of set {line.answer_set!r} to {line.question_id!r} in {line.corpus}/{line.config}"
            problems.append(Problem(str(path), lineno, "question_id", said))
            continue
        rows.append(
            HumanLabelRecord(
                corpus=line.corpus,
                config=line.config,
                answer_set=line.answer_set,
                question_id=line.question_id,
                answer_id=answer["answer_id"],
                input_sha=answer["input_sha"],
                label=line.label,
                labeller=line.labeller,
                labelled_at=when,
                note=line.note,
                source=f"import {path.name}",
            )
        )
    return rows, problems
