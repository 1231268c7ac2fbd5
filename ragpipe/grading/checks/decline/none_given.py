"""When the answer is that there is none, an opening that says so has answered.

Some gold answers are an absence: "There are none", "0", "Ulta Beauty did not make any acquisitions",
"gross margin is not a relevant metric", "Real growth was flat" (needle kinds absence, inapplicable,
unchanged: text/stated.py). An answer that opens by saying so of the thing asked about ("Ulta Beauty
did not have any debt securities registered ...", "... are as follows: * None") has given that answer;
a decline phrase after it ("the filing does not list any", "you would need to check the latest
filing") is a caveat on it, not a refusal. The none must stand in the answer's own voice, before the
first decline phrase and outside every one: "The document does not provide information on any debt
securities" says nothing of the company, only of the document, and still declines.

That decline is tentative, though (`none_of_the_source`): where the gold is that there is none, the
source holding none of the things asked about is the same observation, and people read it either way
(FinanceBench's people label the same "The document does not provide information on any debt
securities ..." a refusal, correct and incorrect). "There is no information on Acme's acquisitions" is a
none of the information, not of the acquisitions, and stays firm.
"""

from __future__ import annotations

from ragpipe.grading.checks.view import AnswerView
from ragpipe.text.needle_kinds import NeedleKind, match_kind
from ragpipe.text.stated import opening_denies_any

NONE_KINDS = frozenset({NeedleKind.ABSENCE, NeedleKind.INAPPLICABLE, NeedleKind.UNCHANGED})


def gives_the_none(view: AnswerView, declines: list[tuple[int, int, str]]) -> bool:
    """The question's gold answer is a none and the answer's opening says it before any of `declines`."""
    kinds = {k for _, k, _ in view.mined if k in NONE_KINDS}
    if not kinds or not declines:
        return False
    first = min(start for start, _, _ in declines)
    said = (view.says.in_opening(match_kind(kind), view.text) for kind in kinds)
    return any(span is not None and span[0] < first for span in said)


def none_of_the_source(view: AnswerView) -> bool:
    """The question's gold answer is that there is none of something, and the answer's opening says the
    source holds not any of it ("The filing does not mention any acquisitions"): a decline that reads as
    the gold's none to some people, a refusal to others."""
    return any(k == NeedleKind.ABSENCE for _, k, _ in view.mined) and opening_denies_any(view.text)
