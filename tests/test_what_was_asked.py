"""What was asked: a list asked for whole needs every item, and the option a choice question offers is
asserted whatever figure of the gold the answer also carries. Graded as `ragpipe grade` grades loose
files (needles mined from the gold answer), with the near misses that stay correct."""

from __future__ import annotations

import json

import pytest

from ragpipe.grading.checks.needles import asks_for_several, list_items
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
    assert list_items("Orlin, Trask and Bellamy") == ["Orlin", "Trask", "Bellamy"]
    assert list_items("Procter & Gamble") == []  # one name
    assert list_items("fuel costs and wages") == []  # not names


def test_the_option_a_choice_question_offers_is_asserted_beside_the_figures(tmp_path):
    rows = _graded(
        tmp_path,
        "Has the quick ratio improved or declined from FY2021 to FY2022?",
        "The quick ratio declined to 0.67.",
        ["The quick ratio has improved, from 0.67 to 1.04.", "The quick ratio has declined, from 1.04 to 0.67."],
    )
    assert [(r["verdict"], r["firm"]) for r in rows] == [("partial", False), ("correct", True)]
