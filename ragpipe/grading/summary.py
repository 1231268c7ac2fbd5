"""What a list of grades comes to, in counts that add up: the `grade` command's last line and
`ragpipe.summary` in Python say the same."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ragpipe.grading.grade import VERDICTS, Verdict


def grade_counts(rows: Iterable[Mapping], unanswered: int = 0) -> dict:
    """answers = correct + partial + wrong + ungradable; accuracy is correct over the graded (None when
    none could be graded); declined counts the answers that declined, whatever their verdict."""
    rows = list(rows)
    counts = {v: sum(r["verdict"] == v for r in rows) for v in VERDICTS}
    graded = len(rows) - counts[Verdict.UNGRADABLE]
    return {
        "answers": len(rows),
        **counts,
        "graded": graded,
        "accuracy": round(counts[Verdict.CORRECT] / graded, 4) if graded else None,
        "declined": sum(bool(r["declined"]) for r in rows),
        "unanswered": unanswered,
    }


def summary_line(counts: Mapping) -> str:
    """`12 answers: 9 correct, 1 partial, 2 wrong, 0 ungradable (75.0% correct of 12 graded); 3 declined;
    2 question(s) unanswered`."""
    graded = counts["graded"]
    pct = f"{100 * counts['accuracy']:.1f}% correct of {graded} graded" if graded else "none graded"
    said = ", ".join(f"{counts[v]} {v}" for v in VERDICTS)
    return (
        f"{counts['answers']} answers: {said} ({pct}); {counts['declined']} declined; "
        f"{counts['unanswered']} question(s) unanswered"
    )
