"""What the checks read of an answer, read once: the readings (grading/readings/), and what several checks
need that one check makes: the decline reading, the yes/no it gives, whether its opening gives the key.

A check reads these from its view (`view.decision`, `view.yes_no`, `view.key_given_before`), never
from another check's finding or private function; each is read the first time a check asks, at most
once an answer. The check that makes a reading declares it (`Check.provides`: the decline check the
decision, the polarity check the yes/no, the needle count the key given), and is given its own rules
to make it; no module here imports a check.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import ragpipe.grading.readings.registry as registry  # a module: the registry's discovery imports this one
from ragpipe.corpus.questions import Question
from ragpipe.grading.checks.registry import CHECKS, checks_for
from ragpipe.grading.checks.view import NOT_DECLINED, AnswerView, Check, Decision, YesNo
from ragpipe.grading.question_reading import QuestionReading, read_question
from ragpipe.grading.readings.unit import Reading
from ragpipe.grading.sections import AnyRules


def _providers(checks: tuple[Check, ...]) -> dict[str, Check]:
    found: dict[str, Check] = {}
    for check in checks:
        for name in check.provides:
            if name in found:
                raise TypeError(f"checks {found[name].id!r} and {check.id!r} both provide the reading {name!r}")
            found[name] = check
    return found


PROVIDERS = _providers(CHECKS)  # reading name -> the check that makes it


@dataclass(frozen=True)
class RuleReadings:
    """The readings under one set of rules (one object per rules object, shared by every view)."""

    rules: AnyRules
    slices: dict = field(default_factory=dict, compare=False)  # check or reading id -> its rules (`rules_of`)
    plans: dict = field(default_factory=dict, compare=False)  # question kind -> ((check, its rules), ...)
    made_by: dict = field(default_factory=dict, compare=False)  # reading -> (its function, its check's rules)
    questions: dict = field(default_factory=dict, compare=False)  # a question's fields -> what it asks

    def question(self, question: Question) -> QuestionReading:
        """What `question` asks under these rules (grading/question_reading.py), read once per question."""
        key = (question.id, question.text, question.kind, question.gold_answer, question.money_key, question.polarity)
        found = self.questions.get(key)
        if found is None:
            if len(self.questions) > 100_000:  # a process grades a few corpora's questions, not unbounded ones
                self.questions.clear()
            found = self.questions[key] = read_question(question, self.rules)
        return found

    def slice_for(self, unit: Check | Reading):
        """A check's or a reading's own rules, made once for these rules."""
        found = self.slices.get(unit.id)
        if found is None:
            found = self.slices[unit.id] = unit.rules_of(self.rules)
        return found

    def reading(self, name: str, view: AnswerView):
        """What the reading `name` (grading/readings/) gives of `view`: what it reads, or where it is
        switched off, what the checks would see without it."""
        unit = registry.READING[name]
        if name in view.off:
            return unit.absent(view)  # type: ignore[misc]  # a reading the view asks for reads (`Reading.read`)
        return unit.read(view, self.slice_for(unit))  # type: ignore[misc]

    def plan(self, kind: str) -> tuple[tuple[Check, object], ...]:
        """The checks that apply to a question of `kind`, in order, each with its own rules (made once)."""
        found = self.plans.get(kind)
        if found is None:
            found = self.plans[kind] = tuple((c, self.slice_for(c)) for c in checks_for(kind))
        return found

    def _read(self, name: str, view: AnswerView, absent):
        made = self.made_by.get(name)
        if made is None:
            check = PROVIDERS.get(name)
            made = self.made_by[name] = (None, None) if check is None else (check.provides[name], self.slice_for(check))
        read, rules = made
        return absent if read is None else read(view, rules)

    def decline(self, view: AnswerView) -> Decision:
        return self._read("decision", view, NOT_DECLINED)

    def yes_no(self, view: AnswerView) -> YesNo | None:
        return self._read("yes_no", view, None)

    def key_given(self, view: AnswerView) -> bool:
        return self._read("key_given", view, False)


_MADE: dict[int, RuleReadings] = {}  # id(rules) -> its readings (the rules kept alive by them)
_LAST: list[RuleReadings | None] = [None]


def readings_for(rules: AnyRules) -> RuleReadings:
    """The readings under `rules`, one object per rules object (a process grades under one or two)."""
    last = _LAST[0]
    if last is not None and last.rules is rules:  # every answer of a table: the same rules
        return last
    made = _MADE.get(id(rules))
    if made is None or made.rules is not rules:
        if len(_MADE) > 32:
            _MADE.clear()
        made = _MADE[id(rules)] = RuleReadings(rules)
    _LAST[0] = made
    return made
