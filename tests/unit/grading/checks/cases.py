"""Grading one answer for a check's table of cases: the verdict, the rule that decided and the check that
found it (the per-check test files share it)."""

from __future__ import annotations

from functools import cache

from ragpipe.corpus.gold_text import gold_text_needles
from ragpipe.corpus.questions import Question
from ragpipe.grading.grade_table import mined_by_question
from ragpipe.grading.grader import grade
from ragpipe.grading.rules import load_rules


@cache
def rules():
    return load_rules()


def graded(question: dict, answer: str, citations: tuple[str, ...] = ()):
    """`answer` graded against `question` (Question fields), needles mined from its gold as `ragpipe grade`
    mines them."""
    q = Question(id="q", **question)
    mined = mined_by_question(gold_text_needles("adhoc", [q])).get("q", ())
    return grade(q, answer, list(citations), rules(), mined)
