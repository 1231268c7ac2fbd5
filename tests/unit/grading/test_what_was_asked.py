"""What was asked: a list asked for whole needs every item, and the option a choice question offers is
asserted whatever figure of the gold the answer also carries. Graded as `ragpipe grade` grades loose
files (needles mined from the gold answer), with the near misses that stay correct."""

from __future__ import annotations

import json

import pytest

from ragpipe.text.asking import asks_for_several
from ragpipe.text.lists import names_listed
from tests.commands import invoke


def _graded(tmp_path, question: str, gold: str, answers: list[str]) -> list[dict]:
    q, a = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    q.write_text(json.dumps({"id": "q", "question": question, "gold_answer": gold}) + "\n")
    a.write_text("".join(json.dumps({"question_id": "q", "answer": x}) + "\n" for x in answers))
    out = invoke("grade", "--questions", str(q), "--answers", str(a), "--json")
    assert out.exit_code == 0, out.output
    return [json.loads(line) for line in out.output.splitlines() if line.startswith("{")]


def test_a_list_asked_for_whole_needs_every_item_in_any_order(tmp_path):
    rows = _graded(
        tmp_path,
        "Which three suppliers did Venmark add in 2020?",
        "Orlin, Trask and Bellamy",
        [
            "Venmark added Orlin, Trask and Gaudet as suppliers in 2020.",  # one wrong, one missing
            "Venmark added Bellamy, Orlin and Trask in 2020.",  # every item, another order
            "In 2020 it added Trask.",
        ],
    )
    assert [r["verdict"] for r in rows] == ["partial", "correct", "partial"]


@pytest.mark.parametrize(
    "question, several",
    [
        ("Which three suppliers did Venmark add in 2020?", True),
        ("Who were the founders of Trask & Co?", True),
        ("Which supplier did Venmark add in 2020?", False),
        ("Who founded Trask & Co?", False),
    ],
)
def test_a_question_that_asks_for_several(question, several):
    assert asks_for_several(question) is several


def test_a_gold_list_of_names_and_what_is_not_one():
    assert names_listed("Orlin, Trask and Bellamy") == ("Orlin", "Trask", "Bellamy")
    assert names_listed("Procter & Gamble") == ()  # one name
    assert names_listed("fuel costs and wages") == ()  # not names


def test_the_option_a_choice_question_offers_is_asserted_beside_the_figures(tmp_path):
    rows = _graded(
        tmp_path,
        "Has the quick ratio improved or declined from FY2021 to FY2022?",
        "The quick ratio declined to 0.67.",
        ["The quick ratio has improved, from 0.67 to 1.04.", "The quick ratio has declined, from 1.04 to 0.67."],
    )
    assert [(r["verdict"], r["firm"]) for r in rows] == [("partial", False), ("correct", True)]


def test_a_reason_met_only_by_its_place_is_at_most_a_tentative_partial(tmp_path):
    rows = _graded(
        tmp_path,
        "Why did freight costs rise in 2022?",
        "Because fuel surcharges doubled on its European routes.",
        [
            "Because of port congestion on its European routes.",  # shares where, not why
            "Fuel surcharges doubled on its European routes.",
            "Fuel surcharges doubled.",  # the reason without the place
        ],
    )
    assert [(r["verdict"], r["firm"]) for r in rows][0] == ("partial", False)
    assert rows[0]["rule"] == "needles.mined.modifier_only"
    assert [r["verdict"] for r in rows[1:]] == ["correct", "correct"]


def test_the_core_of_a_gold_clause_and_its_place_or_time(rules):
    from ragpipe.text.gold_clause import asks_why, only_in_modifiers

    gold = "Because fuel surcharges doubled on its European routes."
    assert only_in_modifiers(gold, "European") and only_in_modifiers(gold, "routes")
    assert not only_in_modifiers(gold, "fuel surcharges doubled") and not only_in_modifiers(gold, "Asia")
    why = rules.reason.why_questions
    assert asks_why("What drove gross margin change in FY2022?", why) and not asks_why("How much did it pay?", why)


def test_a_name_is_the_value_of_the_slot_the_question_opens(tmp_path):
    rows = _graded(
        tmp_path,
        "Which product line had the highest margin in 2022?",
        "Outdoor",
        [
            "Kitchenware had the highest margin in 2022; Outdoor came second.",  # Outdoor mentioned, not asserted
            "Outdoor had the highest margin in 2022; Kitchenware came second.",
            "In 2022, Outdoor had the highest margin of the three lines.",
            "It was Outdoor: its margin was the highest in 2022.",  # no clause fills the slot: read as before
        ],
    )
    assert [(r["verdict"], r["rule"], r["firm"]) for r in rows][0] == ("wrong", "needles.slot_filled_otherwise", False)
    assert [r["verdict"] for r in rows[1:]] == ["correct", "correct", "correct"]


@pytest.mark.parametrize(
    "question, answer, filled",
    [
        ("Which product line had the highest margin in 2022?", "Kitchenware had the highest margin.", "Kitchenware"),
        ("Which animal was Robin Hood in the Disney film?", "Robin Hood was a fox.", None),  # asks about a name
        ("Which game has five players per team?", "It is played with five players per team.", None),  # a pronoun
        ("Which product line had the highest margin in 2022?", "Margins rose across the lines.", None),
    ],
)
def test_the_slot_is_read_conservatively(rules, question, answer, filled):
    from ragpipe.text.slot import asked_slot, slot_filler

    found = slot_filler(answer, asked_slot(question, rules.slot.verbs), rules.slot.verbs)
    assert (found[0] if found else None) == filled
