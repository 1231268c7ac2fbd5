"""The decline check: did the answer decline, and is that right for the question's kind?

Answerable: a decline is wrong. Negative (the documents cannot answer it): declining is the correct
answer, anything else is wrong. Ambiguous: declining is correct; otherwise the other checks grade it as
answerable. The decision itself (phrases, grammar, what the answer asserts) is grading/declines.py's,
made once per answer on the whole text; its rules are the `declines` section.

A recognised decline is firm evidence. "Did not decline" rests on the absence of a recognised decline
phrase, which an unusual wording escapes: tentative.
"""

from __future__ import annotations

from ragpipe.grading import outcomes
from ragpipe.grading.checks.view import EVERY_KIND, AnswerView, Check, Finding, Findings
from ragpipe.grading.declines import outermost


def run(view: AnswerView, found: Findings) -> Finding | None:
    decision, kind = view.decision, view.question.kind
    spans = tuple({"kind": "decline", "needle": p, "start": s, "end": e} for s, e, p in outermost(decision.spans))
    if kind == "negative" and decision.declined:
        return Finding("decline", "correct", None, outcomes.NEGATIVE_DECLINED, spans, declined=True)
    if kind == "negative":
        return Finding("decline", "wrong", outcomes.NOT_DECLINED, outcomes.NEGATIVE_NOT_DECLINED, firm=False)
    if not decision.declined:
        return None
    if kind == "ambiguous":
        return Finding("decline", "correct", None, outcomes.AMBIGUOUS_DECLINED, spans, declined=True)
    return Finding("decline", "wrong", outcomes.DECLINED_ANSWERABLE, outcomes.ANSWERABLE_DECLINED, spans, declined=True)


CHECK = Check(
    "decline",
    run,
    "a decline, judged by the question's kind",
    order=10,
    kinds=EVERY_KIND,
    rules=(
        outcomes.NEGATIVE_DECLINED,
        outcomes.NEGATIVE_NOT_DECLINED,
        outcomes.AMBIGUOUS_DECLINED,
        outcomes.ANSWERABLE_DECLINED,
    ),
)
