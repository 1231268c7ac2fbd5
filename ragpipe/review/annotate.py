"""Mark up an answer for a reader: what matched, whose voice, which money figures.

The grader's own functions find the spans (attribution split, figures), so the
report shows what the grader saw, not a re-implementation of it. The answer is
cut into runs of characters sharing the same marks, so overlapping marks
(a matched key inside an attributed clause) stay visible.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal

from ragpipe.grading.rules import Rules
from ragpipe.grading.voice import attributed_spans
from ragpipe.text.citations import blank_citations
from ragpipe.text.figures import find_figures, question_scale
from ragpipe.text.money import matches_key, money_key_value


@dataclass(frozen=True)
class Run:
    text: str
    marks: tuple[str, ...]  # css classes: src, hit, hit-<kind>, money-key, money-wrong, money-mentioned
    notes: tuple[str, ...]  # tooltips: what each mark means here


def _is_key(key: tuple[str, str] | None, rules: Rules):
    """Whether a figure is the money key by value, as the grader compares it (None: no key)."""
    if key is None:
        return lambda figure: False
    value, scale = money_key_value(*key), question_scale(key[1])
    tol = Decimal(str(rules.money.relative_tolerance))
    return lambda figure: matches_key(value, figure, scale, tol)


def _money_marks(
    answer: str, attributed: list[tuple[int, int]], matched: list[dict], wrong: set[str], is_key
) -> list[tuple[int, int, str, str]]:
    keys = [(m["start"], m["end"]) for m in matched if m.get("kind") == "money_key"]
    marks = []
    for f in find_figures(answer):
        if not f.is_money:
            continue
        if any(s <= f.start < e for s, e in keys) or (is_key(f) and not any(s <= f.start < e for s, e in attributed)):
            kind, note = "money-key", f"{f.text}: the money key"
        elif any(s <= f.start < e for s, e in attributed):
            kind, note = "money-mentioned", f"{f.text}: mentioned in the source's voice, not asserted"
        elif f.text in wrong:
            kind, note = "money-wrong", f"{f.text}: a money figure that is not the key"
        else:
            kind, note = "money-mentioned", f"{f.text}: mentioned, not what decided the verdict"
        marks.append((f.start, f.end, kind, note))
    return marks


def annotate(
    answer: str,
    matched_json: str | None,
    wrong_money,
    money_question: bool,
    rules: Rules,
    key: tuple[str, str] | None = None,
) -> list[Run]:
    """The answer as runs of text with marks; offsets come from the grade's `matched` spans.
    `key` is (money key, question text): a figure equal to the key is marked as the key even when
    the grade stopped before looking for it (a wrong figure elsewhere decides first)."""
    answer = answer or ""
    matched = json.loads(matched_json) if matched_json else []
    attributed = attributed_spans(blank_citations(answer, rules.citations.marker_pattern), rules)
    spans: list[tuple[int, int, str, str]] = [
        (s, e, "src", "source's voice (attributed): figures here do not count") for s, e in attributed
    ]
    for m in matched:
        if 0 <= m.get("start", -1) < m.get("end", -1) <= len(answer):
            spans.append((m["start"], m["end"], f"hit hit-{m['kind']}", f"{m['kind']}: {m.get('needle', '')}"))
    if money_question:
        wrong = set(wrong_money if wrong_money is not None else [])
        spans.extend(_money_marks(answer, attributed, matched, wrong, _is_key(key, rules)))
    return _runs(answer, spans)


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
