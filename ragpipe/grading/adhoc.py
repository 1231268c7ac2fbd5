"""Grade arbitrary answers against arbitrary questions, from two JSONL files.

Question lines: `id`, `question`, `kind` (answerable / negative / ambiguous),
`gold_answer`, optional `must_contain`, `must_contain_any`,
`must_not_contain`, `money_key`, `golden_docs`. Answer lines: `question_id`,
`answer`, optional `citations` (document ids). No corpus, no warehouse: the
rules and these two files are the whole input.
"""

from __future__ import annotations

from pathlib import Path

from ragpipe.grading.grader import grade
from ragpipe.grading.rules import Rules
from ragpipe.jsonl import read_jsonl
from ragpipe.problems import Problem
from ragpipe.questions import read_questions


def grade_files(questions_path: Path, answers_path: Path, rules: Rules) -> tuple[list[dict], list[Problem]]:
    loaded = read_questions(questions_path)
    questions = {q.id: q for q in loaded.questions}
    problems = list(loaded.problems)
    rows = []
    for lineno, row in read_jsonl(answers_path, problems):
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
            "failure": g.failure, "rule": g.rule, "grader_version": rules.version, "matched": g.matched, "truncated": g.truncated,
        })
    return rows, problems
