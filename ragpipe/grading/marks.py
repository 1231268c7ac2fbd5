"""What a reader is shown beside a verdict, recorded with it: the spans in the sources' voice, the
hedges and corrected statements (said, not asserted), and the role of each money figure.

They go into `grades.matched` after the evidence the verdict rests on, so the review report and the
labelling page show what the grader saw, read from the grades table rather than re-derived from the
answer with whatever rules are current (grades made before these marks were recorded show their
evidence alone).
"""

from __future__ import annotations

from ragpipe.grading.checks.view import AnswerView
from ragpipe.text.money import matches_key

ATTRIBUTED = "attributed"  # a span in the sources' voice: figures there are mentioned, not asserted
UNASSERTED = "unasserted"  # a hedge ("either A or B"), a statement corrected, a name denied ("A, not B")
MONEY = "money"  # a money figure, with its `role`: key, source (its voice), wrong, mentioned (only)


def reader_marks(view: AnswerView, evidence: tuple[dict, ...], wrong_money: tuple[str, ...]) -> tuple[dict, ...]:
    """The sources' voice spans, the unasserted ones and, on a money question, every money figure with
    its role. A figure is the key where the grade found it, or where it equals the key by value in the
    answer's own voice."""
    marks = [{"kind": ATTRIBUTED, "start": s, "end": e} for s, e in view.attributed]
    marks += [{"kind": UNASSERTED, "start": s, "end": e} for s, e in view.unasserted]
    if not view.money_question:
        return tuple(marks)
    keys = [(m["start"], m["end"]) for m in evidence if m.get("kind") == "money_key"]
    wrong = set(wrong_money)
    for f in view.every_figure:
        if not f.is_money:
            continue
        in_source = any(s <= f.start < e for s, e in view.attributed)
        unsaid = in_source or any(s <= f.start < e for s, e in view.unasserted)  # a hedge's key is no key
        other = None if unsaid else view.measures.other(f)
        if other is not None and view.key is not None and matches_key(view.key, f, view.scale, view.tolerance):
            # the key's value, stated as a measure the question did not ask (text/measures.py)
            marks.append({"kind": MONEY, "needle": f"{f.text}, mentioned as {other.phrase}", "start": f.start,
                          "end": f.end, "role": "mentioned_as"})  # fmt: skip
            continue
        if any(s <= f.start < e for s, e in keys) or (
            not unsaid and view.key is not None and matches_key(view.key, f, view.scale, view.tolerance)
        ):
            role = "key"
        elif in_source:
            role = "source"
        elif f.text in wrong:
            role = "wrong"
        else:
            role = "mentioned"
        marks.append({"kind": MONEY, "needle": f.text, "start": f.start, "end": f.end, "role": role})
    return tuple(marks)
