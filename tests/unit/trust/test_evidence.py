"""A verdict's evidence: what it says on the scale people judge by, and the numbers named after it."""

from __future__ import annotations

import pytest

from ragpipe.trust.evidence import Verdict, agrees, evidence_of, gold_cover, says


@pytest.mark.parametrize(
    ("kind", "verdict", "declined", "said"),
    [
        ("answerable", "correct", False, "correct"),
        ("answerable", "wrong", False, "not_correct"),
        ("answerable", "partial", False, "not_correct"),
        ("answerable", "wrong", True, "declined"),
        ("negative", "correct", True, "declined"),
        ("negative", "wrong", False, "answered"),
        ("ambiguous", "ungradable", False, "answered"),
    ],
)
def test_a_verdict_says_what_people_would_check(kind, verdict, declined, said):
    assert says(kind, verdict, declined) == said


def test_people_agree_on_the_scale_of_the_question():
    # an answerable question: a decline and a wrong answer are both "not correct"
    assert agrees("answerable", "declined", person_correct=False, person_declined=False)
    assert not agrees("answerable", "correct", person_correct=False, person_declined=True)
    # a question that may be declined: only whether it declined
    assert agrees("negative", "declined", person_correct=False, person_declined=True)
    assert not agrees("ambiguous", "answered", person_correct=False, person_declined=True)


def test_gold_cover_is_the_best_share_of_one_gold_form():
    assert gold_cover("It was Dana Ortiz who won.", ("Dana Ortiz", "Ortiz")) == 1.0
    assert gold_cover("Ortiz came second.", ("Dana Maria Ortiz",)) == pytest.approx(1 / 3)
    assert gold_cover("anything", ("", "the of")) is None  # no gold word to look for


def test_the_same_evidence_is_named_after_what_the_verdict_says():
    golds = ("Dana Ortiz",)
    right = evidence_of(Verdict("answerable", "correct", False, "needles.authored.all", True, ()), golds, "Dana Ortiz")
    wrong = evidence_of(Verdict("answerable", "wrong", False, "needles.authored.none", False, ()), golds, "Dana Ortiz")
    assert right["gold_cover|says=correct"] == 1.0 and "gold_cover|says=not_correct" not in right
    assert wrong["gold_cover|says=not_correct"] == 1.0
    assert right["rule=needles.authored.all:exact"] == 1.0 and wrong["rule=needles.authored.none:loose"] == 1.0


def test_where_a_decline_stands_in_the_answer():
    answer = "Revenue grew 4%. However, I cannot confirm the segment figures."
    start = answer.index("I cannot")
    spans = ({"kind": "decline", "start": start, "end": start + len("I cannot confirm")},)
    found = evidence_of(Verdict("answerable", "wrong", True, "answerable.declined", True, spans), ("4%",), answer)
    assert found["decline_at|says=declined"] == pytest.approx(start / len(answer))
    assert 0 < found["after_decline|says=declined"] < 0.5
    assert found["figures|says=declined"] == 0.1  # one figure, "4"


def test_an_ambiguous_rule_is_read_as_the_rule():
    v = Verdict("ambiguous", "ungradable", False, "ambiguous.needles.ungradable", False, ())
    assert "rule=needles.ungradable:loose" in evidence_of(v, ("",), "Sure, here it is.")
