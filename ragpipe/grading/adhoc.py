"""Grade arbitrary answers against arbitrary questions, from two JSONL files.

Question lines: `id`, `question`, `kind` (answerable / negative / ambiguous),
`gold_answer`, optional `must_contain`, `must_contain_any`,
`must_not_contain`, `money_key`, `golden_docs`. Answer lines: `question_id`,
`answer`, optional `citations` (document ids). No corpus, no warehouse: the
rules and these two files are the whole input.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from ragpipe.grading.grader import grade
from ragpipe.grading.rules import Rules
from ragpipe.questions import Problem, Question, validation_problems


def _jsonl(path: Path, problems: list[Problem]) -> list[tuple[int, dict]]:
    out = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(Problem(str(path), lineno, "(line)", f"invalid JSON: {exc.msg}"))
            continue
        if not isinstance(row, dict):
            problems.append(Problem(str(path), lineno, "(line)", "expected a JSON object"))
            continue
        out.append((lineno, row))
    return out


def read_question_lines(path: Path, problems: list[Problem]) -> dict[str, Question]:
    questions: dict[str, Question] = {}
    for lineno, row in _jsonl(path, problems):
        row = dict(row)
        if "question" in row and "text" not in row:
            row["text"] = row.pop("question")
        try:
            q = Question.model_validate(row)
        except ValidationError as err:
            problems.extend(validation_problems(err, str(path), lineno))
            continue
        if q.id in questions:
            problems.append(Problem(str(path), lineno, "id", f"duplicate question id {q.id!r}"))
            continue
        questions[q.id] = q
    return questions


def grade_files(questions_path: Path, answers_path: Path, rules: Rules) -> tuple[list[dict], list[Problem]]:
    problems: list[Problem] = []
    questions = read_question_lines(questions_path, problems)
    rows = []
    for lineno, row in _jsonl(answers_path, problems):
        qid, answer = row.get("question_id"), row.get("answer")
        if qid not in questions:
            problems.append(Problem(str(answers_path), lineno, "question_id", f"unknown question {qid!r}"))
            continue
        if not isinstance(answer, str):
            problems.append(Problem(str(answers_path), lineno, "answer", "missing or not a string"))
            continue
        citations = row.get("citations") or []
        g = grade(questions[qid], answer, [str(c) for c in citations], rules)
        rows.append({
            "question_id": qid, "verdict": g.verdict, "declined": g.declined, "money_question": g.money_question,
            "failure": g.failure, "rule": g.rule, "grader_version": rules.version, "matched": g.matched,
        })
    return rows, problems
