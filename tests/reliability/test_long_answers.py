"""A runaway answer is graded on a bounded prefix, and says so; grading stays linear in what it reads
(bench/regrade.py times 10,000 and 20,000 repetitions side by side)."""

from __future__ import annotations

import pandas as pd

from ragpipe.corpus.questions import Question, questions_frame
from ragpipe.grading.grade_table import grade_answers
from ragpipe.grading.grader import grade

REPEATED = "I could not find it. "


def test_an_answer_beyond_the_limit_is_graded_on_its_prefix_and_flagged(rules):
    negative = Question(id="q", text="What is the pet deposit?", kind="negative")
    limit = rules.answers.max_chars
    long = REPEATED * (2 * limit // len(REPEATED))
    g = grade(negative, long, [], rules)
    prefix = grade(negative, long[:limit], [], rules)
    assert g.truncated and not prefix.truncated
    assert (
        (g.verdict, g.declined, g.rule)
        == (prefix.verdict, prefix.declined, prefix.rule)
        == ("correct", True, "negative.declined")
    )
    assert all(m["end"] <= limit for m in g.matched)
    assert not grade(negative, REPEATED, [], rules).truncated


def test_a_figure_past_the_limit_is_not_read(rules):
    question = Question(id="q", text="How much is the rent?", kind="answerable", money_key="$2,150")
    limit = rules.answers.max_chars
    answer = "The rent is $2,150. " + "x" * limit + " Actually it is $9,999."
    g = grade(question, answer, [], rules)
    assert g.truncated and g.verdict == "correct" and g.wrong_money == ()


def test_the_grades_table_says_which_answers_were_truncated(rules):
    question = Question(id="q", text="What is the pet deposit?", kind="negative")
    answers = pd.DataFrame(
        [
            {
                "corpus": "c",
                "config": "k",
                "answer_set": "s",
                "question_id": "q",
                "answer_id": f"a{i}",
                "answer": text,
                "citations": [],
                "error": None,
                "graded_as": None,
            }
            for i, text in enumerate([REPEATED, REPEATED * 10_000])
        ]
    )
    needles = pd.DataFrame(columns=["question_id", "needle", "kind", "source", "status"])
    grades = grade_answers(answers, questions_frame("c", [question]), needles, rules)
    assert list(grades.sort_values("answer_id")["truncated"]) == [False, True]
