"""What a grade can say: its failure kinds and the ids of the rules that decide it.

Constants, so that the grader, the scorecards, the money bar and a reader's SQL
over `grades.failure` and `grades.rule` compare against one spelling each. The
values are stored in the warehouse: renaming one is a grader change.
"""

from __future__ import annotations

# failure kinds (grades.failure)
DECLINED_ANSWERABLE = "declined an answerable question"
WRONG_MONEY = "wrong money figure"
FORBIDDEN_CLAIM = "states a forbidden claim"
WRONG_YES_NO = "wrong yes/no"
MISSING_NEEDLES = "missing needles"
OTHER_VALUE = "states another value for what was asked"  # the asked measure bound to a figure not the key
NOT_GOLDEN_CITATION = "did not cite the golden document"
NOT_DECLINED = "did not decline"
UNGRADABLE_NO_YES_NO = "ungradable: no yes/no stated"
UNGRADABLE_NO_NEEDLES = "ungradable: no needles"
ENGINE_FAILED = "engine error"  # the answer is an engine's error, graded as the empty answer
JUDGED_INCORRECT = "judged incorrect"  # the model judge read the answer as wrong (judge/)

# rule ids (grades.rule); an ambiguous question's answerable rules are prefixed `ambiguous.`
ANSWERABLE_DECLINED = "answerable.declined"
MONEY_WRONG_FIGURE = "money.wrong_figure"
MONEY_OTHER_VALUE = "money.asked_measure_other_figure"  # the asked measure stated as another figure
MONEY_KEY_OTHER_MEASURE = "money.key_as_other_measure"  # the key stated only as another measure
NEEDLES_OTHER_VALUE = "needles.asked_measure_other_figure"
NEEDLES_MODIFIER_ONLY = "needles.mined.modifier_only"  # a reason's gold met only by its place or time
NEEDLES_SLOT_OTHER = "needles.slot_filled_otherwise"  # the question's slot filled by another name
NEEDLES_MUST_NOT_CONTAIN = "needles.must_not_contain"
POLARITY_WRONG = "polarity.wrong"
NEEDLES_UNGRADABLE = "needles.ungradable"
CITATIONS_NOT_GOLDEN = "citations.not_golden"
NEGATIVE_DECLINED = "negative.declined"
NEGATIVE_NOT_DECLINED = "negative.not_declined"
AMBIGUOUS_DECLINED = "ambiguous.declined"
AMBIGUOUS_PREFIX = "ambiguous."
ENGINE_ERROR = "engine.error"


def needles_rule(source: str, found: str) -> str:
    """`needles.<authored|mined>.<all|some|none>`: how many of the question's needles the answer carries."""
    return f"needles.{source}.{found}"


def judge_rule(verdict: str) -> str:
    """`judge.<correct|incorrect|declined>`: the model judge decided (judge/)."""
    return f"judge.{verdict}"


CHECKS_PASSED = "checks.passed"  # correct with the needle count switched off (only when measuring checks)


def rule_ids() -> frozenset[str]:
    """Every rule id a grade can carry (the judge's own aside), so a list that names rules (a judge's
    `keep:`) can be checked against what the grader says rather than accepted and never matched."""
    plain = {
        value
        for name, value in globals().items()
        if name.isupper() and isinstance(value, str) and "." in value and not value.endswith(".")
    }
    plain |= {needles_rule(source, found) for source in ("authored", "mined") for found in ("all", "some", "none")}
    answerable = {rule for rule in plain if not rule.startswith(("negative.", "ambiguous."))}
    return frozenset(plain | {AMBIGUOUS_PREFIX + rule for rule in answerable})
