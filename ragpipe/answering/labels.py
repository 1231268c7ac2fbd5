"""Human-labelled answers (FinanceBench's upstream format) as an answer set.

Each file is one model in one mode; each row a real answer and a person's
verdict: `Correct Answer`, `Incorrect Answer` or `Refusal`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ragpipe.inputs.jsonl import read_jsonl
from ragpipe.inputs.names import LABELLED_PREFIX, NameRefused, answer_set_name
from ragpipe.inputs.problems import Problem
from ragpipe.warehouse.row import Record

HUMAN_CLASSES = ("Correct Answer", "Incorrect Answer", "Refusal")


@dataclass(slots=True)
class LabelRecord(Record):
    """One model's answer to one question, with a person's verdict on it."""

    answer_set: str
    question_id: str
    model: str | None
    mode: str | None
    answer: str
    label: str  # one of HUMAN_CLASSES
    file: str
    line: int


LABEL_COLUMNS = LabelRecord.columns()


def labelled_set_name(path: Path) -> str:
    """`gpt-4_oracle.jsonl` -> `labeled:gpt-4_oracle` (NameRefused for a file name no set may take)."""
    return answer_set_name(f"{LABELLED_PREFIX}{path.stem}", labelled=True)


def read_labeled_file(path: Path) -> tuple[pd.DataFrame, list[Problem]]:
    problems: list[Problem] = []
    rows = []
    try:
        name = labelled_set_name(path)
    except NameRefused as exc:
        return LabelRecord.frame([]), [Problem(str(path), 0, "(file name)", str(exc))]
    for lineno, r in read_jsonl(path, problems):
        missing = [f for f in ("financebench_id", "model_answer", "label") if f not in r]
        if missing:
            problems.extend(Problem(str(path), lineno, f, "missing") for f in missing)
            continue
        if r["label"] not in HUMAN_CLASSES:
            problems.append(Problem(str(path), lineno, "label", f"unknown label {r['label']!r}"))
            continue
        rows.append(
            LabelRecord(
                answer_set=name,
                question_id=r["financebench_id"],
                model=r.get("model_name"),
                mode=r.get("eval_mode"),
                answer=r["model_answer"] if isinstance(r["model_answer"], str) else "",
                label=r["label"],
                file=path.name,
                line=lineno,
            )
        )
    return LabelRecord.frame(rows), sorted(problems, key=lambda p: p.line)


def read_labeled_folder(folder: Path) -> tuple[pd.DataFrame, list[Problem]]:
    frames, problems = [], []
    for path in sorted(folder.glob("*.jsonl")):
        frame, file_problems = read_labeled_file(path)
        frames.append(frame)
        problems.extend(file_problems)
    if not frames:
        return pd.DataFrame(columns=LABEL_COLUMNS), problems
    return pd.concat(frames, ignore_index=True), problems
