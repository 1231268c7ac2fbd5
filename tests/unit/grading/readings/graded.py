"""An answer graded as `ragpipe grade` grades it (needles mined from the gold answer), with readings off."""

from __future__ import annotations

from ragpipe.corpus.gold_text import gold_text_needles
from ragpipe.corpus.questions import Question
from ragpipe.grading.adhoc import CORPUS
from ragpipe.grading.grade import Grade
from ragpipe.grading.grade_table import mined_by_question
from ragpipe.grading.grader import grade


def question(text: str, gold: str, **kw) -> Question:
    return Question(id="q", text=text, gold_answer=gold, **kw)


def graded(q: Question, answer: str, rules, off: frozenset[str] | set[str] = frozenset()) -> Grade:
    mined = mined_by_question(gold_text_needles(CORPUS, [q])).get(q.id, ())
    return grade(q, answer, [], rules, mined, off=frozenset(off))


def moved(q: Question, answer: str, rules, reading: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """(verdict, rule) with every reading on, and with `reading` off."""
    on, off = graded(q, answer, rules), graded(q, answer, rules, {reading})
    return (on.verdict, on.rule), (off.verdict, off.rule)
