"""The verdicts a judge can give, and which of them a question's kind allows: what `apply` decides by.

Apart from the reply's reader (`reply.py`), so reading replies can change without moving the grader
version: only this, `apply.py` and the input key (`record.py`) decide what a judgment does to a grade.
"""

CORRECT, INCORRECT, DECLINED, UNPARSED = "correct", "incorrect", "declined", "unparsed"
VERDICTS = (CORRECT, INCORRECT, DECLINED)
JUDGE_ON = ("tentative", "all")  # which rule verdicts a judge is asked about


def allowed_verdicts(kind: str | None) -> tuple[str, ...]:
    """The verdicts a judge may give for a question of `kind`: its prompt forbids "correct" on a negative
    question (nothing there can be answered correctly), so such a reply decides nothing."""
    return (INCORRECT, DECLINED) if kind == "negative" else VERDICTS
