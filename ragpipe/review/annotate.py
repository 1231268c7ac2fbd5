"""Mark up an answer for a reader: what matched, whose voice, which money figures.

Every mark is read from the grade's `matched` spans (grading/marks.py records
the sources' voice and each money figure's role beside the evidence), so the
report and the labelling page show what the grader saw when it graded, not a
re-derivation under today's rules. The answer is cut into runs of characters
sharing the same marks, so overlapping marks (a matched key inside an
attributed clause) stay visible.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ragpipe.grading.marks import ATTRIBUTED, MONEY, UNASSERTED

_UNSAID = {  # spans the checks did not read as asserted, shown alike (css class src)
    ATTRIBUTED: "source's voice (attributed): figures here do not count",
    UNASSERTED: "a hedge or a corrected statement: named here, not asserted",
}

_MONEY = {  # a money figure's role -> (css class, what it means here)
    "key": ("money-key", "the money key"),
    "source": ("money-mentioned", "mentioned in the source's voice, not asserted"),
    "wrong": ("money-wrong", "a money figure that is not the key"),
    "mentioned": ("money-mentioned", "mentioned, not what decided the verdict"),
    "mentioned_as": ("money-mentioned", "the key's value, stated as another measure than the one asked: not asserted"),
}


@dataclass(frozen=True)
class Run:
    text: str
    marks: tuple[str, ...]  # css classes: src, hit, hit-<kind>, money-key, money-wrong, money-mentioned
    notes: tuple[str, ...]  # tooltips: what each mark means here


def annotate(answer: str, matched_json: str | None) -> list[Run]:
    """The answer as runs of text with the marks its grade stored (`grades.matched`)."""
    answer = answer or ""
    matched = [m for m in (json.loads(matched_json) if matched_json else []) if _inside(m, answer)]
    source = [(m["start"], m["end"], "src", _UNSAID[m["kind"]]) for m in matched if m["kind"] in _UNSAID]
    hits = [
        (m["start"], m["end"], f"hit hit-{m['kind']}", f"{m['kind']}: {m.get('needle', '')}{_read(m)}")
        for m in matched
        if m["kind"] not in (*_UNSAID, MONEY)
    ]
    money = [
        (m["start"], m["end"], _MONEY[m["role"]][0], f"{m['needle']}: {_MONEY[m['role']][1]}")
        for m in matched
        if m["kind"] == MONEY and m.get("role") in _MONEY
    ]
    return _runs(answer, source + hits + money)


def _read(mark: dict) -> str:
    """The lenient reading a needle needed, in words, when it needed one (grading/checks/needles.py)."""
    return f" (met by a lenient reading: {mark['reading']}; never firm)" if mark.get("reading") else ""


def _inside(mark: dict, answer: str) -> bool:
    return isinstance(mark, dict) and "kind" in mark and 0 <= mark.get("start", -1) < mark.get("end", -1) <= len(answer)


def _runs(answer: str, spans: list[tuple[int, int, str, str]]) -> list[Run]:
    """Cut `answer` where marks start or end, in one sweep: each cut updates the marks in force instead of
    testing every span (that was quadratic: a 1 MB answer took 22 s), and a run's text is joined once."""
    starts: dict[int, list[int]] = {}
    ends: dict[int, list[int]] = {}
    for i, (s, e, _, _) in enumerate(spans):
        if s >= e:  # covers no character
            continue
        starts.setdefault(s, []).append(i)
        ends.setdefault(e, []).append(i)
    cuts = sorted({0, len(answer), *starts, *ends})
    active: set[int] = set()
    pieces: list[tuple[tuple[str, ...], tuple[str, ...], list[str]]] = []
    for start, end in zip(cuts, cuts[1:]):
        active.difference_update(ends.get(start, ()))
        active.update(starts.get(start, ()))
        covering = [spans[i] for i in sorted(active)]  # in the spans' order, as the marks were listed
        marks = tuple(dict.fromkeys(m for _, _, kind, _ in covering for m in kind.split()))
        notes = tuple(dict.fromkeys(note for _, _, _, note in covering))
        if pieces and pieces[-1][:2] == (marks, notes):
            pieces[-1][2].append(answer[start:end])
        else:
            pieces.append((marks, notes, [answer[start:end]]))
    return [Run("".join(texts), marks, notes) for marks, notes, texts in pieces]
