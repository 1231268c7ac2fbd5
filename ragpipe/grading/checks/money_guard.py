"""The money guard: on a money question, an answer whose asserted figure is not the key, and that
gives any money figure other than the key, is wrong, whatever else it says. A key buried among other
figures is a dump of figures, not an answer."""

from __future__ import annotations

from ragpipe.grading import outcomes
from ragpipe.grading.checks.money_key import asserted_money, matches_key
from ragpipe.grading.checks.view import AnswerView, Check, Finding


def run(view: AnswerView) -> Finding | None:
    key = view.key
    if not view.money_question or key is None:
        return None
    money = [f for f in view.figures if f.is_money]
    if any(matches_key(key, f, view.scale, view.tolerance) for f in asserted_money(view.text, money)):
        return None
    wrong = [f for f in money if not matches_key(key, f, view.scale, view.tolerance)]
    if not wrong:
        return None
    return Finding(
        "money_guard",
        "wrong",
        outcomes.WRONG_MONEY,
        outcomes.MONEY_WRONG_FIGURE,
        tuple({"kind": "wrong_money", "needle": f.text, "start": f.start, "end": f.end} for f in wrong),
        wrong_money=tuple(f.text for f in wrong),
    )


CHECK = Check("money_guard", "money", run, "a money question answered with a money figure that is not the key")
