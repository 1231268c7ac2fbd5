"""Anyone's labelled answers: grade the grader on a team's own people, no corpus needed.

One JSON object per line (docs/agreement.md has the format):

    {"question": "Who won the 2019 race?", "kind": "answerable", "gold_answer": "Dana Ortiz",
     "answer": "The race was won by Dana Ortiz.", "label": "correct", "system": "model-a"}

With no documents, the gold answer is the gold text: needles are mined from
it as from a filing (figures by value, names, distinctive words), never from
the question. `needles` (any one of them) and `must_contain` (all) and
`money_key` are authored keys, used as the corpus questions use them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pandas as pd
from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator

from ragpipe.answering.answer_row import AnswerRecord
from ragpipe.answering.labels import HUMAN_CLASSES
from ragpipe.answering.run import answer_id
from ragpipe.corpus.questions import Question, validation_problems
from ragpipe.inputs.jsonl import read_jsonl
from ragpipe.inputs.problems import Problem
from ragpipe.text.figures import parse_figure

CORPUS, CONFIG = "labels", "file"
LABELS = {"correct": HUMAN_CLASSES[0], "incorrect": HUMAN_CLASSES[1], "refusal": HUMAN_CLASSES[2]}


class LabelledAnswer(BaseModel):
    """One line: a question with its gold answer, one system's answer, and a person's verdict."""

    model_config = ConfigDict(extra="forbid")
    question: str = Field(min_length=1)
    kind: Literal["answerable", "negative", "ambiguous"] = "answerable"
    gold_answer: str | list[str] = Field(
        "", description="the gold answer, or its accepted forms (any one of them is the key, as `needles`)"
    )
    answer: str
    label: Literal["correct", "incorrect", "refusal"]
    question_id: str | None = Field(None, validation_alias=AliasChoices("question_id", "id"))  # a question line's `id`
    question_type: str | None = None
    system: str = "labelled"
    needles: list[str] = Field(default_factory=list, description="any one of these makes the answer carry the key")
    must_contain: list[str] = Field(default_factory=list)
    money_key: str | None = None
    polarity: Literal["yes", "no"] | None = None  # default: Yes/No opening the gold answer of a yes/no question

    @field_validator("money_key")
    @classmethod
    def _one_figure(cls, value: str | None) -> str | None:
        if value is not None:
            parse_figure(value)
        return value

    def qid(self) -> str:
        return self.question_id or "q-" + hashlib.sha256(self.question.encode()).hexdigest()[:12]

    @field_validator("gold_answer")
    @classmethod
    def _forms(cls, value: str | list[str]) -> str | list[str]:
        if isinstance(value, list) and (not value or any(not v.strip() for v in value)):
            raise ValueError("a list of gold answers needs at least one, none blank")
        return value

    def as_question(self) -> Question:
        """The question as every reader makes it (corpus/questions.py): accepted forms, polarity and
        kind are read there, so a labels line and a `ragpipe grade` question line grade alike."""
        return Question.model_validate(
            {
                "id": self.qid(),
                "text": self.question,
                "kind": self.kind,
                "question_type": self.question_type,
                "gold_answer": self.gold_answer,
                "must_contain": self.must_contain,
                "must_contain_any": self.needles,
                "money_key": self.money_key,
                "polarity": self.polarity,
            }
        )


@dataclass
class LabelledSet:
    """What a labels file holds: its questions, answers and the lines that could not be used."""

    questions: list[Question]
    answers: pd.DataFrame
    problems: list[Problem]


def read_labelled_jsonl(path: Path) -> LabelledSet:
    """Every usable line of `path`; a bad line is a problem naming file, line and field, the rest load."""
    problems: list[Problem] = []
    rows = read_jsonl(path, problems)
    labelled = labelled_rows(rows, str(path), path.name)
    return LabelledSet(labelled.questions, labelled.answers, sorted(problems + labelled.problems, key=lambda p: p.line))


def labelled_rows(rows, source: str, file_name: str = "") -> LabelledSet:
    """Every usable (line, raw row) pair read from `source` (a file, or rows in memory)."""
    problems: list[Problem] = []
    questions: dict[str, Question] = {}
    rows_out = []
    seen: set[tuple[str, str]] = set()
    for line, raw in rows:
        try:
            row = LabelledAnswer.model_validate(raw)
        except ValidationError as err:
            problems.extend(validation_problems(err, source, line))
            continue
        q = row.as_question()
        if q.id in questions and questions[q.id] != q:
            problems.append(
                Problem(source, line, "question_id", f"{q.id!r} was given with another question or gold answer")
            )
            continue
        if (row.system, q.id) in seen:
            problems.append(Problem(source, line, "system", f"a second answer of {row.system!r} to {q.id!r}"))
            continue
        seen.add((row.system, q.id))
        questions[q.id] = q
        answer_set = f"labeled:{row.system}"
        settings = json.dumps({"model": row.system, "file": file_name}, sort_keys=True)
        rows_out.append(
            AnswerRecord(
                corpus=CORPUS,
                config=CONFIG,
                answer_set=answer_set,
                question_id=q.id,
                answer_id=answer_id(CORPUS, CONFIG, answer_set, q.id),
                answer=row.answer,
                engine="import",
                engine_settings=settings,
                label=LABELS[row.label],
            )
        )
    return LabelledSet(
        questions=list(questions.values()),
        answers=AnswerRecord.frame(rows_out),
        problems=sorted(problems, key=lambda p: p.line),
    )


def agreement_for_jsonl(
    path: Path, rules, ablate: bool = False, calibrate: tuple | None = None, judge=None, verdicts: bool = False
) -> dict:
    """Agreement of `rules` with the people who labelled `path`: the same report as for FinanceBench."""
    return agreement_for_set(read_labelled_jsonl(path), str(path), rules, ablate, calibrate, judge, verdicts)


def agreement_for_set(
    labelled: LabelledSet,
    source: str,
    rules,
    ablate: bool = False,
    calibrate: tuple | None = None,
    judge=None,
    verdicts: bool = False,
) -> dict:
    """Agreement of `rules` with the people who labelled `labelled` (read from `source`)."""
    from ragpipe.grader_agreement.labelled_agreement import labelled_agreement

    if labelled.answers.empty:
        raise LookupError(f"{source}: no usable labelled answer ({len(labelled.problems)} problem(s))")
    questions, needles = _questions_and_needles(labelled)
    report = labelled_agreement(labelled.answers, questions, needles, rules, ablate, calibrate, judge, verdicts)
    return {"problems": [str(p) for p in labelled.problems], **report}


def _questions_and_needles(labelled: LabelledSet) -> tuple[pd.DataFrame, pd.DataFrame]:
    from ragpipe.corpus.gold_text import gold_text_needles
    from ragpipe.corpus.questions import questions_frame

    return questions_frame(CORPUS, labelled.questions), gold_text_needles(CORPUS, labelled.questions)


def labelled_set_graded(labelled: LabelledSet, rules) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(grades, answers, questions) of a labelled set under `rules`."""
    from ragpipe.grading.grade_table import grade_answers

    questions, needles = _questions_and_needles(labelled)
    return grade_answers(labelled.answers, questions, needles, rules), labelled.answers, questions
