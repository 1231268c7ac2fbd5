"""The money guard: on a money question, an answer whose asserted figure is not the key, and that
gives any money figure other than the key, is wrong, whatever else it says. A key buried among other
figures is a dump of figures, not an answer."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ragpipe.grading import outcomes
from ragpipe.grading.checks.view import AnswerView, Check, Finding, Findings
from ragpipe.text.money import asserted_money, matches_key
from ragpipe.text.patterns import valid_regex


class Money(BaseModel):
    """rules.yaml `money`: the key's tolerance and the wording that makes a question a money question."""

    model_config = ConfigDict(extra="forbid")
    relative_tolerance: float = Field(0, ge=0, lt=1)
    question_patterns: list[str] = Field(default_factory=list)

    @field_validator("question_patterns")
    @classmethod
    def _compiles(cls, v: list[str]) -> list[str]:
        return [valid_regex(p) for p in v]


def run(view: AnswerView, found: Findings) -> Finding | None:
    key = view.key
    money = [f for f in view.figures if f.is_money]
    if any(matches_key(key, f, view.scale, view.tolerance) for f in asserted_money(view.text, money)):
        return None
    wrong = [f for f in money if not matches_key(key, f, view.scale, view.tolerance)]
    if not wrong:
        return None
    return Finding(
        "money_guard",
        "wrong",
        outcomes.WRONG_MONEY,
        outcomes.MONEY_WRONG_FIGURE,
        tuple({"kind": "wrong_money", "needle": f.text, "start": f.start, "end": f.end} for f in wrong),
        wrong_money=tuple(f.text for f in wrong),
    )


CHECK = Check(
    "money_guard",
    run,
    "a money question answered with a money figure that is not the key",
    order=20,
    needs=("money_question", "money_key"),
    sections={"money": Money},
    rules=(outcomes.MONEY_WRONG_FIGURE,),
)
