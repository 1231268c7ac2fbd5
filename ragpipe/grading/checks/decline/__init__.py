"""The decline check: did the answer decline, and is that right for the question's kind?

Answerable: a decline is wrong. Negative (the documents cannot answer it): declining is the correct
answer, anything else is wrong. Ambiguous: declining is correct; otherwise the other checks grade it as
answerable. The decision (phrases, grammar, what the answer asserts) is `decide.py`'s, made on the
whole answer, its parts composed by `grammar.py`; its rules are the `declines` and `assertions`
sections (`sections.py`).

A recognised decline phrase is firm evidence; a decline read from the opening's stance alone (an
objection, with no decline phrase: stance.py) is tentative. "Did not decline" rests on the absence of a
recognised decline phrase, which an unusual wording escapes: tentative. An answer that did not decline but holds decline
phrases passes them on to the checks after this one (a yes/no "restated" inside a decline is no answer). Where the gold
answer is a none, an opening that says it has answered, whatever decline phrase follows (none_given.py), and a
decline that says the source holds not any of the things asked about is tentative; an opening that states
the key exactly before any decline phrase has answered too (key_given.py). Where the question has no gold
answer, a decline that names no principle ("I don't have access to that") is tentative (on_principle.py).
"""

from __future__ import annotations

from typing import Protocol

from ragpipe.corpus.kinds import declining_is_right
from ragpipe.grading import outcomes
from ragpipe.grading.checks.decline.decide import decide, outermost
from ragpipe.grading.checks.decline.key_given import gives_the_key
from ragpipe.grading.checks.decline.named import NamedRule, named_rules  # the audit's view of each rule
from ragpipe.grading.checks.decline.none_given import gives_the_none, none_of_the_source
from ragpipe.grading.checks.decline.on_principle import unprincipled
from ragpipe.grading.checks.decline.sections import Assertions, Declines
from ragpipe.grading.checks.view import EVERY_KIND, AnswerView, Check, Finding
from ragpipe.grading.grade import Verdict


class DeclineRules(Protocol):
    declines: Declines
    assertions: Assertions


def run(view: AnswerView, rules: DeclineRules) -> Finding | None:
    decision = view.decision  # decided once (grading/readings.py: decide); none where this check is off
    kind = view.question.kind
    spans = tuple({"kind": "decline", "needle": p, "start": s, "end": e} for s, e, p in outermost(decision.spans))
    firm = not decision.by_stance
    if kind == "negative" and decision.declined:
        return Finding("decline", Verdict.CORRECT, None, outcomes.NEGATIVE_DECLINED, spans, declined=True, firm=firm)
    if kind == "negative":
        return Finding("decline", Verdict.WRONG, outcomes.NOT_DECLINED, outcomes.NEGATIVE_NOT_DECLINED, firm=False)
    # the none asked for, or the key stated, then a caveat
    if not decision.declined or gives_the_none(view, decision.spans) or gives_the_key(view, decision.spans):
        return None  # its decline phrases are the view's to read (`view.decision`), not a finding
    firm = firm and not none_of_the_source(view)  # "the filing does not mention any": the gold's none, or not
    firm = firm and not unprincipled(view, rules.declines)  # no gold, no principle: "I have no access to her files"
    if declining_is_right(kind):  # ambiguous (a negative question was decided above)
        return Finding("decline", Verdict.CORRECT, None, outcomes.AMBIGUOUS_DECLINED, spans, declined=True, firm=firm)
    return Finding(
        "decline",
        Verdict.WRONG,
        outcomes.DECLINED_ANSWERABLE,
        outcomes.ANSWERABLE_DECLINED,
        spans,
        declined=True,
        firm=firm,
    )


__all__ = ["CHECK", "NamedRule", "declines", "named_rules"]


def declines(answer: str, rules, question: str = "") -> bool:
    """Whether `answer` declines under `rules`, whatever the question's kind (for audits)."""
    return decide(answer, rules, question).declined


CHECK = Check(
    "decline",
    run,
    "a decline, judged by the question's kind",
    order=10,
    kinds=EVERY_KIND,
    sections={"declines": Declines, "assertions": Assertions},
    rules=(
        outcomes.NEGATIVE_DECLINED,
        outcomes.NEGATIVE_NOT_DECLINED,
        outcomes.AMBIGUOUS_DECLINED,
        outcomes.ANSWERABLE_DECLINED,
    ),
    always_runs=True,
    decides_declines=True,
    reads=("polarity",),  # the opening's stance reads a restated question as the polarity check does
    provides={"decision": lambda view, rules: decide(view.whole, rules, view.question.text)},
)
