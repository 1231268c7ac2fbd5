"""When the answer is that there is none, an opening that says so has answered.

Some gold answers are an absence: "There are none", "0", "Ulta Beauty did not make any acquisitions",
"gross margin is not a relevant metric", "Real growth was flat" (needle kinds absence, inapplicable,
unchanged: text/stated.py). An answer that opens by saying so of the thing asked about ("Ulta Beauty
did not have any debt securities registered ...", "... are as follows: * None") has given that answer;
a decline phrase after it ("the filing does not list any", "you would need to check the latest
filing") is a caveat on it, not a refusal. The none must stand in the answer's own voice, before the
first decline phrase and outside every one: "The document does not provide information on any debt
securities" says nothing of the company, only of the document, and still declines.
"""

from __future__ import annotations

from ragpipe.grading.checks.view import AnswerView
from ragpipe.text.needle_kinds import NeedleKind, match_kind
from ragpipe.text.stated import opening_says

NONE_KINDS = frozenset({NeedleKind.ABSENCE, NeedleKind.INAPPLICABLE, NeedleKind.UNCHANGED})


def gives_the_none(view: AnswerView, declines: list[tuple[int, int, str]]) -> bool:
    """The question's gold answer is a none and the answer's opening says it before any of `declines`."""
    kinds = {k for _, k, _ in view.mined if k in NONE_KINDS}
    if not kinds or not declines:
        return False
    first = min(start for start, _, _ in declines)
    said = (opening_says(match_kind(kind), view.text) for kind in kinds)
    return any(span is not None and span[0] < first for span in said)
