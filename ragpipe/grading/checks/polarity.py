"""The polarity check: the yes or no an answer gives, stated ("Yes, ...") or implied by restating the
question, against the gold answer's (`question.polarity`).

"Does AMCOR have an improving gross margin profile?" is answered No by "Amcor
does not have an improving gross margin profile" and by "Amcor's gross margin
profile is declining", Yes by "Amcor has an improving gross margin profile".
Only the answer's opening counts (its first sentence and, when that announces
what follows, "Here are the key points:", the statement after its colon:
text/sentences.py), and only when it restates most of the question's content
words (rules: polarity).

The opposite word is wrong, whatever else the answer says; the right word is one more requirement of
the needle count. A stated word is firm; one implied by a restatement is tentative.
"""

from __future__ import annotations

import re
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from ragpipe.grading import outcomes
from ragpipe.grading.checks.view import AnswerView, Check, Finding, YesNo
from ragpipe.grading.grade import Verdict
from ragpipe.grading.sections import AnyRules
from ragpipe.text.restatement import negations_in, restatement
from ragpipe.text.sentences import opening_statements


class Polarity(BaseModel):
    """rules.yaml `polarity`: when a first sentence restates the question, and what turns its sense."""

    model_config = ConfigDict(extra="forbid")
    restates_share: float = Field(1.0, gt=0, le=1)
    negations: list[str] = Field(default_factory=list)
    antonyms: list[tuple[str, str]] = Field(default_factory=list)


_LEADING_YES_NO = re.compile(r"^\W*(?:based on [^,.]*,\s*)?(yes|no)\b", re.IGNORECASE)


def stated_polarity(text: str) -> tuple[str, int, int] | None:
    """The Yes or No an answer opens with ("Yes, ...", "Based on the filing, no, ...", "Here is what the
    filing says: No, ..."), and its span."""
    for start, _ in opening_statements(text):
        m = _LEADING_YES_NO.match(text[start:])
        if m:
            return m.group(1).lower(), start + m.start(1), start + m.end(1)
    return None


def implied_polarity(question: str, text: str, rules: AnyRules) -> tuple[str, int, int] | None:
    """Yes or No from an opening sentence that restates the question, and that sentence's span."""
    p = rules.polarity
    for start, end in opening_statements(text):
        sentence = text[start:end]
        turned = restatement(question, sentence, p.restates_share, tuple(map(tuple, p.antonyms)))
        if turned is not None:
            negated = negations_in(sentence, tuple(p.negations))
            return ("no" if (negated + turned) % 2 else "yes"), start, end
    return None


class PolarityRules(Protocol):
    polarity: Polarity


def read_yes_no(view: AnswerView, rules: PolarityRules) -> YesNo | None:
    """The yes or no the answer gives (read once for the polarity check and the needle count, through
    `view.yes_no`): stated in so many words, else implied by restating the question, where the restating
    sentence is not one that declines ("there is no information on X's ratio" restates, not answers)."""
    stated = stated_polarity(view.text)
    implied = stated is None
    if implied:
        stated = implied_polarity(view.question.text, view.text, rules)
        if stated and any(stated[1] <= s < stated[2] for s, _, _ in view.decision.spans):
            stated = None
    return YesNo(*stated, implied=implied) if stated else None


def run(view: AnswerView, rules: PolarityRules) -> Finding | None:
    yes = view.yes_no
    if yes is None:
        return None
    if yes.word != view.question.polarity:
        span = {"kind": "polarity", "needle": yes.word, "start": yes.start, "end": yes.end}
        return Finding(
            "polarity", Verdict.WRONG, outcomes.WRONG_YES_NO, outcomes.POLARITY_WRONG, (span,), firm=not yes.implied
        )
    return Finding("polarity", firm=not yes.implied, noted=True)  # the right word: the needle count requires it


CHECK = Check(
    "polarity",
    run,
    "a yes/no question answered with the opposite word",
    order=40,
    needs=("yes_no",),
    sections={"polarity": Polarity},
    rules=(outcomes.POLARITY_WRONG,),
    provides={"yes_no": read_yes_no},
)
