"""`ragpipe labels import FILE.jsonl`: people's labels from a file, each line checked against the
warehouse. A bad line is reported as file:line:field and skipped; the rest are imported.

A line: {"corpus": "demo", "config": "default", "answer_set": "extractive", "question_id": "q01",
"label": "correct", "labeller": "ana", "note": "..."} (labeller and note optional). What
`ragpipe labels export` writes is read back as it is: its `answer_id` must be the answer's, its
`labelled_at` and `input_sha` are kept (a label given on another text of the answer stays one that
no longer counts), `source`, `received` and `current` are the export's own and are ignored.

Which label counts is decided by the order the warehouse receives them (labels/store.py), never by a
date in the file: `labelled_at` is kept as information, and a date in the future (more than
CLOCK_SKEW ahead of this machine) or before 1970 is a problem of its line, which alone is skipped.

A file says each label once. Of the lines that give one labeller's label of one answer, the last one
is that labeller's word now: it is stored (and so counts) unless the warehouse already holds it as
that labeller's latest, word for word (label, note, input_sha), in which case the file says nothing new
of that answer and nothing of it is stored. Undated lines before it are not stored (a million copies
of a line are one row); dated ones (an exported history, `--revisions`) are stored before it when the
warehouse lacks them, as history that does not count. Lines without a `labelled_at` are stamped with
the import's time, one microsecond apart in file order.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

import duckdb
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, field_validator

from ragpipe.corpus.questions import validation_problems
from ragpipe.inputs.jsonl import read_jsonl
from ragpipe.inputs.problems import Problem
from ragpipe.labels.label import HumanLabelRecord, labeller_refused
from ragpipe.labels.store import current_answers, latest_first
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.tables import table_exists

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
CLOCK_SKEW = timedelta(minutes=5)  # another machine's clock may run a little ahead of this one's


class LabelLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    corpus: str = Field(min_length=1)
    config: str = Field(min_length=1)
    answer_set: str = Field(min_length=1)
    question_id: str = Field(min_length=1)
    label: Literal["correct", "incorrect", "refusal"]
    labeller: str = "unknown"
    note: str | None = Field(None, max_length=2000)
    # what `labels export` adds, read back so that its output imports as it is
    answer_id: str | None = Field(None, min_length=1)
    input_sha: str | None = Field(None, pattern=r"^[0-9a-f]{16}$")
    labelled_at: AwareDatetime | None = None
    source: str | None = None
    received: int | None = None
    current: bool | None = None

    @field_validator("labeller")
    @classmethod
    def _named(cls, value: str) -> str:
        refused = labeller_refused(value)
        if refused:
            raise ValueError(refused)
        return value

    @field_validator("labelled_at")
    @classmethod
    def _when_plausible(cls, value: datetime | None) -> datetime | None:
        if value is None:
            return value
        try:
            utc = value.astimezone(UTC)
        except OverflowError:  # 0001-01-01T00:00:00+05:00 is in year 0 in UTC
            raise ValueError("before 1970: not a time a label was given") from None
        if utc < EPOCH:
            raise ValueError("before 1970: not a time a label was given")
        if utc > datetime.now(UTC) + CLOCK_SKEW:
            raise ValueError(f"{iso(utc)} is in the future: not a time a label was given")
        return value


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
    stored = _stored_by_labeller(conn, {key[0] for key in kept})
    groups: dict[tuple[str, str], list[HumanLabelRecord]] = {}  # (answer, labeller) -> its lines, last word last
    base = datetime.now(UTC)
    for k, ((answer_id, who, when), (line, answer)) in enumerate(kept.items()):
        row = HumanLabelRecord(
            corpus=line.corpus,
            config=line.config,
            answer_set=line.answer_set,
            question_id=line.question_id,
            answer_id=answer_id,
            input_sha=line.input_sha or answer["input_sha"],
            label=line.label,
            labeller=line.labeller,
            labelled_at=when or iso(base + timedelta(microseconds=k)),
            note=line.note,
            source=f"import {path.name}",
        )
        groups.setdefault((answer_id, who), []).append(row)
    rows: list[HumanLabelRecord] = []
    for pair, group in groups.items():
        held, last = stored.get(pair), group[-1]
        if held is not None and held.latest == (last.label, last.note, last.input_sha):
            continue  # the labeller's last word is what the warehouse holds as theirs: nothing to say
        known = held.revisions if held is not None else set()
        history = [r for r in group[:-1] if (r.labelled_at, r.label, r.note, r.input_sha) not in known]
        rows.extend([*history, last])  # received in this order: the last word counts
    return ImportedLabels(rows, problems, sound)


@dataclass(frozen=True)
class _Held:
    """What the warehouse holds of one labeller's labels of one answer."""

    latest: tuple  # (label, note, input_sha) of the one received last
    revisions: set[tuple]  # (labelled_at, label, note, input_sha) of every one


def _stored_by_labeller(conn: duckdb.DuckDBPyConnection, answer_ids: set[str]) -> dict[tuple[str, str], _Held]:
    """(answer_id, labeller) -> what the warehouse holds of that labeller's labels of these answers."""
    if not answer_ids or not table_exists(conn, "human_labels"):
        return {}
    rows = conn.execute(
        "SELECT answer_id, labeller, labelled_at, label, note, input_sha FROM human_labels "
        f"WHERE list_contains(?, answer_id) ORDER BY answer_id, labeller, {latest_first(conn)}",
        [sorted(answer_ids)],
    ).fetchall()
    out: dict[tuple[str, str], _Held] = {}
    for answer_id, who, when, label, note, sha in rows:
        held = out.get((answer_id, who))
        if held is None:  # the first row of a labeller's answer is the one received last
            held = out[(answer_id, who)] = _Held((label, note, sha), set())
        held.revisions.add((when, label, note, sha))
    return out
