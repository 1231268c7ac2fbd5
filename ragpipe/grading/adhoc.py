"""Grade arbitrary answers against arbitrary questions: two JSONL files, or rows in memory.

Question lines: `id`, `question`, optional `kind` (answerable, the default;
negative; ambiguous), `gold_answer` (text, or a list of accepted forms),
optional `must_contain`, `must_contain_any`, `must_not_contain`, `money_key`,
`polarity`, `golden_docs`. Answer lines: `question_id`, `answer`, optional
`citations` (document ids). No corpus, no warehouse: needles are mined from
the gold answer (corpus/gold_text.py), as `ragpipe agreement` does for a
labels file, so one question line is graded the same way by both.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragpipe.corpus.gold_text import gold_text_needles
from ragpipe.corpus.questions import Question, read_questions, validation_problems
from ragpipe.grading.grade_table import mined_by_question
from ragpipe.grading.grader import grade
from ragpipe.grading.rules import Rules
from ragpipe.inputs.problems import Problem
from ragpipe.inputs.rows import ANSWER_LISTS, ANSWER_NUMBERS, read_rows

CORPUS = "adhoc"
GRADE_FIELDS = [
    "question_id",
    "verdict",
    "declined",
    "money_question",
    "failure",
    "rule",
    "grader_version",
    "matched",
    "truncated",
    "firm",
    "confidence",
    "confidence_why",
    "exact",
    "checks",
]


class AnswerLine(BaseModel):
    """One answer line, validated at the boundary: a bad field is a problem naming the line, not a crash."""

    model_config = ConfigDict(extra="ignore")
    question_id: str = Field(min_length=1)
    answer: str
    citations: list[str] = Field(default_factory=list)


@dataclass
class Graded:
    """What grading a question set and its answers came to."""

    rows: list[dict]
    problems: list[Problem]
    unanswered: list[str]  # question ids no answer line names
    texts: list[str] = field(default_factory=list)  # each row's answer text (what a model judge reads)
    notes: list[Problem] = field(default_factory=list)  # rows graded, with something to say about them
    questions: list[Question] = field(default_factory=list)


def answer_lines(
    rows: Iterable[tuple[int, object]], source: str, problems: list[Problem]
) -> list[tuple[int, AnswerLine]]:
    """The valid answer lines of (line, raw row) pairs; each bad one a Problem naming source, line and field."""
    lines = []
    for lineno, raw in rows:
        try:
            lines.append((lineno, AnswerLine.model_validate(raw)))
        except ValidationError as err:
            problems.extend(validation_problems(err, source, lineno))
    return lines


def grade_lines(
    questions: list[Question], answers: list[tuple[int, AnswerLine]], rules: Rules, source: str = "answers"
) -> Graded:
    """Each answer graded against its question, needles mined from the gold answers."""
    by_id = {q.id: q for q in questions}
    mined = mined_by_question(gold_text_needles(CORPUS, questions))
    problems: list[Problem] = []
    notes: list[Problem] = []
    rows, texts = [], []
    first_line: dict[str, int] = {}
    for lineno, line in answers:
        qid = line.question_id
        if qid not in by_id:
            problems.append(Problem(source, lineno, "question_id", f"unknown question {qid!r}"))
            continue
        if qid in first_line:  # graded as its own row (two systems' answers may share a file), but said
            said = f"a second answer to {qid!r} (the first is on line {first_line[qid]}): graded as its own row"
            notes.append(Problem(source, lineno, "question_id", said))
        first_line.setdefault(qid, lineno)
        g = grade(by_id[qid], line.answer, line.citations, rules, mined.get(qid, ()))
        texts.append(line.answer)
        rows.append({"question_id": qid, **g.json_row(), "grader_version": rules.version})
    unanswered = [q.id for q in questions if q.id not in first_line]
    return Graded(rows, problems, unanswered, texts=texts, questions=list(questions), notes=notes)


def grade_files(questions_path: Path, answers_path: Path, rules: Rules) -> Graded:
    loaded = read_questions(questions_path)
    problems = list(loaded.problems)
    lines = answer_lines(read_rows(answers_path, problems, ANSWER_LISTS, ANSWER_NUMBERS), str(answers_path), problems)
    graded = grade_lines(loaded.questions, lines, rules, str(answers_path))
    return Graded(
        graded.rows,
        problems + graded.problems,
        graded.unanswered,
        texts=graded.texts,
        questions=graded.questions,
        notes=graded.notes,
    )


def grades_frame(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=GRADE_FIELDS)
