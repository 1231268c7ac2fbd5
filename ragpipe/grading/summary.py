"""What a list of grades comes to, in counts that add up: the `grade` command's last line and
`ragpipe.summary` in Python say the same."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ragpipe.grading.grade import VERDICTS, Verdict
from ragpipe.grading.outcomes import WRONG_MONEY
from ragpipe.grading.report_mapping import ReportMapping


@dataclass(frozen=True, repr=False, eq=False)
class GradeCounts(ReportMapping):
    """`ragpipe.summary`'s answer: the counts as a mapping (`counts["accuracy"]`, `dict(counts)`), typed
    where a reader needs them, and `summary()`, the `grade` command's last line."""

    @property
    def answers(self) -> int:
        return self.data["answers"]

    @property
    def accuracy(self) -> float | None:
        return self.data["accuracy"]

    @property
    def wrong_money(self) -> int:
        return self.data["wrong_money"]

    def summary(self) -> str:
        return summary_line(self.data)


def grade_counts(rows: Iterable[Mapping], unanswered: int = 0) -> dict:
    """answers = correct + partial + wrong + ungradable; accuracy is correct over the graded and the
    questions left unanswered, which count against the system (None when there are neither); declined
    counts the answers that declined, whatever their verdict."""
    rows = list(rows)
    counts = {v: sum(r["verdict"] == v for r in rows) for v in VERDICTS}
    graded = len(rows) - counts[Verdict.UNGRADABLE]
    return {
        "answers": len(rows),
        **counts,
        "graded": graded,
        "accuracy": round(counts[Verdict.CORRECT] / (graded + unanswered), 4) if graded + unanswered else None,
        "declined": sum(bool(r["declined"]) for r in rows),
        "unanswered": unanswered,
        # ZERO-WRONG-MONEY, as the scorecard's money bar: no answer may state a wrong amount of money
        "money_questions": len({r["question_id"] for r in rows if r.get("money_question")}),
        "wrong_money": sum(r.get("failure") == WRONG_MONEY for r in rows),
    }


def summary_line(counts: Mapping) -> str:
    """`12 answers: 9 correct, 1 partial, 2 wrong, 0 ungradable (75.0% correct of 12 graded); 3 declined;
    2 question(s) unanswered; 4 money question(s): ZERO-WRONG-MONEY FAIL (1 wrong amount)`."""
    graded, unanswered = counts["graded"], counts["unanswered"]
    pct = f"{100 * counts['accuracy']:.1f}% correct of {graded} graded" if graded else "none graded"
    if unanswered and counts["accuracy"] is not None:
        pct = (
            f"{100 * counts['accuracy']:.1f}% correct of {graded + unanswered}: {graded} graded, "
            f"{unanswered} unanswered counted against it"
        )
    said = ", ".join(f"{counts[v]} {v}" for v in VERDICTS)
    money = counts.get("money_questions", 0)
    wrong = counts.get("wrong_money", 0)
    bar = f"FAIL ({wrong} wrong amount{'s' if wrong != 1 else ''})" if wrong else "PASS"
    return (
        f"{counts['answers']} answers: {said} ({pct}); {counts['declined']} declined; "
        f"{counts['unanswered']} question(s) unanswered; {money} money question(s): ZERO-WRONG-MONEY {bar}"
    )
