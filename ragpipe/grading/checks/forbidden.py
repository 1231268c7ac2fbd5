"""The forbidden-claim check: an answer that states what the question's author marked as wrong
(`must_not_contain`, matched as a phrase or, for a figure, by value) is wrong. Authored: firm."""

from __future__ import annotations

from ragpipe.grading import outcomes
from ragpipe.grading.checks.view import AnswerView, Check, Finding
from ragpipe.grading.grade import Verdict
from ragpipe.text.matching import find_needle


def run(view: AnswerView, rules) -> Finding | None:  # no rules section of its own: authored claims
    for needle in view.question.must_not_contain:
        span = find_needle(needle, view.text, view.figures, view.tolerance)
        if span:
            found = {"kind": "must_not_contain", "needle": needle, "start": span[0], "end": span[1]}
            return Finding(
                "forbidden", Verdict.WRONG, outcomes.FORBIDDEN_CLAIM, outcomes.NEEDLES_MUST_NOT_CONTAIN, (found,)
            )
    return None


CHECK = Check(
    "forbidden",
    run,
    "an authored forbidden claim stated",
    order=30,
    needs=("forbidden_claims",),
    rules=(outcomes.NEEDLES_MUST_NOT_CONTAIN,),
)
