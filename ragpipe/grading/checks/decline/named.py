"""Every decline rule on its own, named, so an audit can say which one fires where.

The decision (decide.py) runs all of them as one alternation; the audit needs each alone: a phrase,
an idiom pattern, a grammar family, an opening, a stance objection. Each is matched as the decision
matches it (phrases as whole words, openings where the answer opens, objections where its opening
sentence starts, a judged method only on a question that asks for a way), on the lower-cased answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ragpipe.grading.checks.decline.decide import grammar, phrase_pattern
from ragpipe.grading.checks.decline.stance import asks_for_a_way, opening
from ragpipe.grading.sections import AnyRules
from ragpipe.text.words import folded


@dataclass(frozen=True)
class NamedRule:
    section: str  # where it is written in rules.yaml: declines.phrases, declines.patterns, ...
    name: str  # the phrase, or the pattern
    fires: Callable[..., bool]  # on the answer as written, and the question's text: fires(answer, question="")


def _anywhere(pattern: re.Pattern[str]) -> Callable[..., bool]:
    return lambda answer, question="": pattern.search(folded(answer)) is not None


def _at_start(pattern: re.Pattern[str]) -> Callable[..., bool]:
    return lambda answer, question="": pattern.match(folded(answer)) is not None


def _at_opening(pattern: re.Pattern[str], rules: AnyRules, only_for_a_way: bool = False) -> Callable[..., bool]:
    def fires(answer: str, question: str = "") -> bool:
        if only_for_a_way and not asks_for_a_way(question, rules):
            return False
        text = folded(answer)
        found = opening(text, rules)
        return found is not None and pattern.match(text, *found) is not None

    return fires


def named_rules(rules: AnyRules, proposed: Sequence[str] = ()) -> list[NamedRule]:
    """The rules' decline rules, each alone; the phrases among them that are `proposed` (rules with a
    proposal added: grader_agreement/audit.py) are in section `proposed`. The premise rebuttal needs the
    question and is the stance's reading, not a pattern: it is not listed."""
    d = rules.declines
    new = {p.lower() for p in proposed}
    phrases = [p for p in d.phrases if p.lower() not in d.excluded]
    out = [NamedRule("declines.phrases", p, _anywhere(phrase_pattern(p))) for p in phrases if p.lower() not in new]
    out += [NamedRule("declines.patterns", p.pattern, _anywhere(re.compile(p.pattern))) for p in d.patterns]
    out += [NamedRule("declines.grammar", p, _anywhere(re.compile(p))) for p in grammar(d.key[3])]
    out += [NamedRule("declines.openings", p.pattern, _at_start(re.compile(p.pattern))) for p in d.openings]
    out += [
        NamedRule("declines.stance.objections", p.pattern, _at_opening(re.compile(p.pattern), rules))
        for p in d.stance.objections
    ]
    out += [
        NamedRule("declines.stance.judged_methods", p.pattern, _at_opening(re.compile(p.pattern), rules, True))
        for p in d.stance.judged_methods
    ]
    out += [NamedRule("proposed", p, _anywhere(phrase_pattern(p))) for p in phrases if p.lower() in new]
    return out
