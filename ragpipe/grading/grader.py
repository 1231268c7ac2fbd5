"""Grade one answer against one question: a verdict, a decline flag, a failure
label, the rule that decided, the spans that matched, the checks that fired,
and whether the verdict is firm or tentative.

`grade()` builds the answer's view once and runs the checks that apply to it
(the question's kind, what each check needs) in their declared order
(checks/registry.py finds them); the first finding with a verdict decides, and
an answer that no check objects to is `correct`. Each check is one module in
checks/ (decline, money guard, forbidden claim, polarity, needle count,
citations), with its own slice of rules.yaml.

- figures and needles count only in the answer's own voice (text/voice.py);
  declines are decided on the whole answer (checks/decline/).
- an ambiguous question's answerable rules are prefixed `ambiguous.`.
- a decline is exact only where the answer does not also meet the key (`_key_met_too`).
- firm is measured: the grade's confidence against the bound in rules.yaml (grading/confidence.py).
- `off` switches checks off by id, for measuring what each one earns
  (`ragpipe agreement --ablate`); grading never passes it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from functools import lru_cache
from typing import cast

from ragpipe.corpus.questions import Question
from ragpipe.grading import outcomes
from ragpipe.grading.checks.registry import CHECKS
from ragpipe.grading.checks.view import AnswerView, Finding, KeyPlace, own_voice
from ragpipe.grading.confidence import with_confidence
from ragpipe.grading.grade import Grade, Verdict
from ragpipe.grading.marks import reader_marks
from ragpipe.grading.readings.shared import RuleReadings, readings_for
from ragpipe.grading.rules import Rules
from ragpipe.text.citations import blank_citations
from ragpipe.text.money import money_key_value
from ragpipe.text.repair import repaired
from ragpipe.text.sentences import sentences

_DECLINING = frozenset(c.id for c in CHECKS if c.decides_declines)  # the checks whose rules are never prefixed


@lru_cache(maxsize=4096)  # one question's needles, for its every answer
def _sourced(mined: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, str, str], ...]:
    """(needle, kind, source) for each mined needle; a pair without its source is from the gold text."""
    return tuple((n, k, rest[0] if rest else "gold_text") for n, k, *rest in mined)


def grade(
    question: Question,
    answer: str,
    citations: list[str],
    rules: Rules,
    mined: Sequence[tuple[str, ...]] = (),
    off: frozenset[str] = frozenset(),
    place: KeyPlace | None = None,
) -> Grade:
    """The verdict on `answer` to `question` under `rules` (pure: same inputs, same grade); `place`: where
    the money key stands in its document, when known. An answer longer than rules.answers.max_chars is
    graded on its prefix, and says so."""
    sourced = _sourced(mined if isinstance(mined, tuple) else tuple(map(tuple, mined)))
    if "repair" not in off:  # read as its author wrote it; the stored row keeps the original (text/repair.py)
        answer = repaired(answer)
    if len(answer) > rules.answers.max_chars:
        cut = answer[: rules.answers.max_chars]
        return replace(_grade(question, cut, citations, rules, sourced, off, place), truncated=True)
    return _grade(question, answer, citations, rules, sourced, off, place)


def answer_view(
    question: Question, answer: str, citations: list[str], rules: Rules, mined=(), off=frozenset(), place=None
) -> AnswerView:
    """The answer as every check reads it (checks/view.py)."""
    whole = blank_citations(answer, rules.citations.marker_pattern)
    readings = readings_for(rules)
    asked = readings.question(question)  # read once per question: what it asks, its money key among it
    key = asked.money_key  # authored, or the gold's one money figure where the question asks what an amount is

    return AnswerView(
        question=question,
        asked=asked,
        whole=whole,
        citations=list(citations),
        attribution=rules.attribution,
        readings=readings,
        mined=mined,
        money_question=asked.money_question,
        voice=lambda: own_voice(whole, rules.attribution, off),  # figures and needles count only in the own voice
        tolerance=Decimal(str(rules.money.relative_tolerance)),
        scale=asked.scale,
        key=None if key is None else money_key_value(key, question.text),
        key_text=key,
        key_place=place if key is not None else None,
        off=off,
    )


def _grade(question: Question, answer: str, citations: list[str], rules: Rules, mined, off, place=None) -> Grade:
    view = answer_view(question, answer, citations, rules, mined, off, place)
    readings = cast(RuleReadings, view.readings)  # the view was made with readings_for(rules)
    finding, found = _first_verdict(view, readings)
    if finding is None:
        passed = next((f for f in reversed(found.values()) if f.rule), None)
        rule = passed.rule if passed else outcomes.CHECKS_PASSED
        decided = _decided(question, view, Finding("all", Verdict.CORRECT, None, rule), list(found.values()))
    else:
        if finding.declined and finding.firm and _key_met_too(view, readings, finding):
            finding = replace(finding, firm=False)
        decided = _decided(question, view, finding, [*found.values(), finding])
    return with_confidence(question, answer, decided, rules.trust)


def _first_verdict(view: AnswerView, readings: RuleReadings) -> tuple[Finding | None, dict[str, Finding]]:
    """The first finding with a verdict (None: no check objects), and the findings before it, by check id
    in the order the checks ran. Each check is given its own rules, never another's findings."""
    found: dict[str, Finding] = {}
    off, declines_read = view.off, view.declines_read
    for check, rules in readings.plan(view.question.kind):
        if (off and check.id in off and not check.always_runs) or not check.applies(view):
            continue
        if check.decides_declines and not declines_read:  # read as if it had not declined
            continue
        finding = check.run(view, rules)
        if finding is None:
            continue
        if finding.verdict is not None:
            return finding, found
        found[check.id] = finding
    return None, found


def _key_met_too(view: AnswerView, readings: RuleReadings, decline: Finding) -> bool:
    """Whether the checks after the decline, reading the answer as if it had not declined, pass it with
    the key met in a sentence of its own: an answer that declines and states the answer at once needs a
    second look, so its decline is tentative ("The filing does not say. ... U.S. sales rose 3.0%"). A key
    met in part is not enough, nor one met inside the decline's own sentence ("I could not find this in
    the provided documents" meets a mined "providing")."""
    parts, phrases = sentences(view.whole), sorted(d["start"] for d in decline.spans)
    declining = [(a, b) for a, b in parts if _holds(phrases, a, b)]
    if len(declining) == len(parts):  # nothing said but the decline (most declines): no second reading
        return False
    finding, found = _first_verdict(view.as_if_not_declined(), readings)
    if finding is not None:  # a check objects: the key is not met
        return False
    met = [s["start"] for f in found.values() if f.rule for s in f.spans]  # no check left to run: none met
    starts = [a for a, _ in declining]
    return any(not _within(declining, starts, offset) for offset in met)


def _holds(offsets: list[int], start: int, end: int) -> bool:
    """Whether one of the sorted `offsets` falls in `start:end` (a sentence holds a decline phrase)."""
    i = bisect_left(offsets, start)
    return i < len(offsets) and offsets[i] < end


def _within(spans: list[tuple[int, int]], starts: list[int], offset: int) -> bool:
    """Whether `offset` falls inside one of the sorted, disjoint `spans` (`starts`: their starts)."""
    i = bisect_right(starts, offset) - 1
    return i >= 0 and offset < spans[i][1]


def _decided(question: Question, view: AnswerView, finding: Finding, evidence: list[Finding]) -> Grade:
    """The grade `finding` decides, with the spans and the checks of every finding on record, and the
    marks a reader is shown beside them (grading/marks.py)."""
    on_record = [f for f in evidence if f.on_record]
    spans = tuple(s for f in on_record for s in f.spans)
    rule = cast(str, finding.rule)  # a deciding finding names its rule
    if question.kind == "ambiguous" and finding.check not in _DECLINING:
        rule = outcomes.AMBIGUOUS_PREFIX + rule
    firm = finding.firm if finding.check != "all" else all(f.firm for f in evidence)
    return Grade(
        cast(str, finding.verdict),
        finding.declined,
        finding.failure,
        rule,
        view.money_question,
        finding.wrong_money,
        spans + reader_marks(view, spans, finding.wrong_money),
        ungradable=finding.ungradable,
        firm=firm,
        checks=tuple(f.check for f in on_record),
        never_firm=any(f.never_firm for f in evidence),
    )
