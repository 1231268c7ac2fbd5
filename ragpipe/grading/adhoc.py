"""Grade arbitrary answers against arbitrary questions, from two JSONL files.

Question lines: `id`, `question`, `kind` (answerable / negative / ambiguous),
`gold_answer`, optional `must_contain`, `must_contain_any`,
`must_not_contain`, `money_key`, `golden_docs`. Answer lines: `question_id`,
`answer`, optional `citations` (document ids). No corpus, no warehouse: the
rules and these two files are the whole input.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragpipe.corpus.questions import read_questions, validation_problems
from ragpipe.grading.grader import grade
from ragpipe.grading.rules import Rules
from ragpipe.inputs.jsonl import read_jsonl
from ragpipe.inputs.problems import Problem


class AnswerLine(BaseModel):
    """One answer line, validated at the boundary: a bad field is a problem naming the line, not a crash."""

    model_config = ConfigDict(extra="ignore")
    question_id: str = Field(min_length=1)
    answer: str
    citations: list[str] = Field(default_factory=list)


def grade_files(questions_path: Path, answers_path: Path, rules: Rules) -> tuple[list[dict], list[Problem]]:
    loaded = read_questions(questions_path)
    questions = {q.id: q for q in loaded.questions}
    problems = list(loaded.problems)
    rows = []
    first_line: dict[str, int] = {}
    for lineno, row in read_jsonl(answers_path, problems):
        try:
            line = AnswerLine.model_validate(row)
        except ValidationError as err:
            problems.extend(validation_problems(err, str(answers_path), lineno))
            continue
        qid = line.question_id
        if qid not in questions:
            problems.append(Problem(str(answers_path), lineno, "question_id", f"unknown question {qid!r}"))
            continue
        if qid in first_line:  # graded as its own row (two systems' answers may share a file), but said
            said = f"a second answer to {qid!r} (the first is on line {first_line[qid]}): graded as its own row"
            problems.append(Problem(str(answers_path), lineno, "question_id", said))
        first_line.setdefault(qid, lineno)
        g = grade(questions[qid], line.answer, line.citations, rules)
        rows.append(
            {
                "question_id": qid,
                "verdict": g.verdict,
                "declined": g.declined,
                "money_question": g.money_question,
                "failure": g.failure,
                "rule": g.rule,
                "grader_version": rules.version,
                "matched": g.matched,
                "truncated": g.truncated,
                "firm": g.firm,
                "checks": list(g.checks),
            }
        )
    return rows, problems
