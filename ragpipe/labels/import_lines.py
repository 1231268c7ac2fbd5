"""`ragpipe labels import FILE.jsonl`: people's labels from a file, each line checked against the
warehouse. A bad line is reported as file:line:field and skipped; the rest are imported.

A line: {"corpus": "demo", "config": "default", "answer_set": "extractive", "question_id": "q01",
"label": "correct", "labeller": "ana", "note": "..."} (labeller and note optional). What
`ragpipe labels export` writes is read back as it is: its `answer_id` must be the answer's, its
`labelled_at` and `input_sha` are kept (a label given on another text of the answer stays one that
no longer counts), `source` and `current` are the export's own and are ignored.

A file says each label once: of the lines that give one labeller's label of one answer, the last one
wins and the others are not stored (a million copies of a line are one row), and a label the
warehouse already holds as that labeller's latest, word for word, is not stored again. Lines without
a `labelled_at` are stamped with the import's time, one microsecond apart in file order, so that two
labellers' labels of one answer in one file never tie: the later line is the later label.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

import duckdb
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError

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
    # what `labels export` adds, read back so that its output imports as it is
    answer_id: str | None = Field(None, min_length=1)
    input_sha: str | None = Field(None, pattern=r"^[0-9a-f]{16}$")
    labelled_at: AwareDatetime | None = None
    source: str | None = None
    current: bool | None = None


@dataclass(frozen=True)
class ImportedLabels:
    """What a file gave: the rows to store, the problems (a line may have several), and how many of its
    lines are sound labels (stored, or saying again what another line or the warehouse holds)."""

    rows: list[HumanLabelRecord]
    problems: list[Problem]
    sound_lines: int

    @property
    def lines_skipped(self) -> int:
        return len({p.line for p in self.problems})


def now_iso() -> str:
    return iso(datetime.now(UTC))


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def read_label_lines(conn: duckdb.DuckDBPyConnection, path: Path) -> ImportedLabels:
    """The labels of `path` that name an answer the warehouse holds, and a problem for every other line."""
    problems: list[Problem] = []
    kept: dict[tuple, tuple[LabelLine, dict]] = {}  # (answer_id, labeller[, labelled_at]) -> its last line
    pairs: dict[tuple[str, str], dict[tuple[str, str], dict]] = {}
    have_answers = table_exists(conn, "answers")
    sound = 0
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
        if line.answer_id is not None and line.answer_id != answer["answer_id"]:
            said = f"{line.answer_id!r} is not the answer of set {line.answer_set!r} to {line.question_id!r} here"
            problems.append(Problem(str(path), lineno, "answer_id", said))
            continue
        sound += 1
        key = (answer["answer_id"], line.labeller, line.labelled_at and iso(line.labelled_at))
        kept.pop(key, None)  # re-inserted: the dict's order is the order of each key's last line
        kept[key] = (line, answer)
    latest = _latest_by_labeller(conn, {key[0] for key in kept})
    base = datetime.now(UTC)
    rows: list[HumanLabelRecord] = []
    for k, (line, answer) in enumerate(kept.values()):
        row = HumanLabelRecord(
            corpus=line.corpus,
            config=line.config,
            answer_set=line.answer_set,
            question_id=line.question_id,
            answer_id=answer["answer_id"],
            input_sha=line.input_sha or answer["input_sha"],
            label=line.label,
            labeller=line.labeller,
            labelled_at=iso(line.labelled_at) if line.labelled_at else iso(base + timedelta(microseconds=k)),
            note=line.note,
            source=f"import {path.name}",
        )
        said = (row.label, row.note, row.input_sha)
        if latest.get((row.answer_id, row.labeller)) != said or line.labelled_at is not None:
            rows.append(row)  # a dated line that is stored already adds nothing (add_labels' key)
    return ImportedLabels(rows, problems, sound)


def _latest_by_labeller(conn: duckdb.DuckDBPyConnection, answer_ids: set[str]) -> dict[tuple[str, str], tuple]:
    """(answer_id, labeller) -> (label, note, input_sha) of that labeller's latest label, for these answers."""
    if not answer_ids or not table_exists(conn, "human_labels"):
        return {}
    rows = conn.execute(
        "SELECT answer_id, labeller, label, note, input_sha FROM human_labels WHERE list_contains(?, answer_id) "
        "QUALIFY row_number() OVER (PARTITION BY answer_id, labeller ORDER BY labelled_at DESC) = 1",
        [sorted(answer_ids)],
    ).fetchall()
    return {(a, who): (label, note, sha) for a, who, label, note, sha in rows}
