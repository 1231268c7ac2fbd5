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
- `off` switches checks off by id, for measuring what each one earns
  (`ragpipe agreement --ablate`); grading never passes it.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from functools import lru_cache

from ragpipe.corpus.questions import Question
from ragpipe.grading import outcomes
from ragpipe.grading.checks.registry import checks_for
from ragpipe.grading.checks.view import AnswerView, Finding
from ragpipe.grading.marks import reader_marks
from ragpipe.grading.record import Verdict
from ragpipe.grading.rules import Rules
from ragpipe.text.citations import blank_citations
from ragpipe.text.figures import question_scale
from ragpipe.text.money import is_money_question, money_key_value
from ragpipe.text.voice import voiced


@lru_cache(maxsize=4096)  # one question's needles, for its every answer
def _sourced(mined: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, str, str], ...]:
    """(needle, kind, source) for each mined needle; a pair without its source is from the gold text."""
    return tuple((n, k, rest[0] if rest else "gold_text") for n, k, *rest in mined)


def grade(
    question: Question,
    answer: str,
    citations: list[str],
    rules: Rules,
    mined: list[tuple[str, str]] = (),
    off: frozenset[str] = frozenset(),
) -> Verdict:
    """The verdict on `answer` to `question` under `rules` (pure: same inputs, same grade);
    an answer longer than rules.answers.max_chars is graded on its prefix, and says so."""
    mined = _sourced(mined if isinstance(mined, tuple) else tuple(map(tuple, mined)))
    if len(answer) > rules.answers.max_chars:
        cut = answer[: rules.answers.max_chars]
        return replace(_grade(question, cut, citations, rules, mined, off), truncated=True)
    return _grade(question, answer, citations, rules, mined, off)


def answer_view(
    question: Question, answer: str, citations: list[str], rules: Rules, mined=(), off=frozenset()
) -> AnswerView:
    """The answer as every check reads it (checks/view.py)."""
    whole = blank_citations(answer, rules.citations.marker_pattern)

    return AnswerView(
        question=question,
        whole=whole,
        citations=list(citations),
        rules=rules,
        mined=mined,
        money_question=is_money_question(
            question.text, question.kind, question.money_key, question.gold_answer, tuple(rules.money.question_patterns)
        ),
        voice=lambda: voiced(whole, rules.attribution),  # figures and needles count only in the own voice
        tolerance=Decimal(str(rules.money.relative_tolerance)),
        scale=question_scale(question.text),
        key=None if question.money_key is None else money_key_value(question.money_key, question.text),
        off=off,
    )


def _grade(question: Question, answer: str, citations: list[str], rules: Rules, mined, off) -> Verdict:
    view = answer_view(question, answer, citations, rules, mined, off)
    found: dict[str, Finding] = {}  # the evidence so far, by check id, in the order the checks ran
    for check in checks_for(question.kind):
        if (check.id in off and not check.always_runs) or not check.applies(view):
            continue
        finding = check.run(view, found)
        if finding is None:
            continue
        if finding.verdict is not None:
            return _decided(question, view, finding, [*found.values(), finding])
        found[check.id] = finding
    passed = next((f for f in reversed(found.values()) if f.rule), None)
    rule = passed.rule if passed else outcomes.CHECKS_PASSED
    return _decided(question, view, Finding("all", "correct", None, rule), list(found.values()))


def _decided(question: Question, view: AnswerView, finding: Finding, evidence: list[Finding]) -> Verdict:
    """The grade `finding` decides, with the spans and the checks of every finding on record, and the
    marks a reader is shown beside them (grading/marks.py)."""
    on_record = [f for f in evidence if f.on_record]
    spans = tuple(s for f in on_record for s in f.spans)
    rule = finding.rule
    if question.kind == "ambiguous" and finding.check != "decline":
        rule = outcomes.AMBIGUOUS_PREFIX + rule
    firm = finding.firm if finding.check != "all" else all(f.firm for f in evidence)
    return Verdict(
        finding.verdict,
        finding.declined,
        finding.failure,
        rule,
        view.money_question,
        finding.wrong_money,
        spans + reader_marks(view, spans, finding.wrong_money),
        ungradable=finding.ungradable,
        firm=firm,
        checks=tuple(f.check for f in on_record),
    )
