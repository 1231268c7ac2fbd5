"""Where the money key stands in its document: mined with its needle, stored, and read by the money guard.
"Amount due: $26.99" labels the key; an answer that states the key as another labelled amount of the same
page, or the document's label of the key as another amount, asserts a wrong figure, whatever the question
calls it."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from ragpipe.corpus.needle_mining import mine_needles
from ragpipe.corpus.questions import Question, questions_frame
from ragpipe.grading.grade_table import grade_answers
from ragpipe.grading.rules import load_rules
from tests.unit.text.test_labels import BILL

QUESTION = Question(
    id="due", text="What do I need to pay Northgate this month?", kind="answerable", gold_answer="$26.99",
    golden_docs=["bill"], golden_pages={"bill": [1]},
)  # fmt: skip
PAGES = pd.DataFrame({"corpus": ["c"], "doc_id": ["bill"], "page": [1], "text": [BILL]})


def test_the_keys_needle_carries_its_label_and_the_pages_other_labels():
    needles = mine_needles("c", [QUESTION], PAGES)
    key = needles[(needles["needle"] == "$26.99") & (needles["status"] == "kept")].iloc[0]
    assert key["label"] == "Amount due"
    assert ["Ending balance", "$42.99"] in json.loads(key["page_labels"])
    assert needles[needles["needle"] != "$26.99"]["label"].isna().all()


@pytest.mark.parametrize(
    "answer, verdict, rule",
    [
        ("The amount due is $42.99.", "wrong", "money."),  # the document's label of the key, another amount
        ("The ending balance is $26.99.", "wrong", "money.key_as_other_measure"),  # the key as another label's
        ("The amount due is $26.99.", "correct", ""),
        ("You need to pay $26.99.", "correct", ""),
        ("The ending balance is $42.99 and the amount due is $26.99.", "correct", ""),
    ],
)
def test_the_money_guard_reads_the_answer_against_the_documents_labels(answer, verdict, rule):
    needles = mine_needles("c", [QUESTION], PAGES)
    answers = pd.DataFrame(
        [{"corpus": "c", "config": "k", "answer_set": "s", "question_id": "due", "answer_id": "a", "answer": answer,
          "citations": [], "error": None}]
    )  # fmt: skip
    g = grade_answers(answers, questions_frame("c", [QUESTION]), needles, load_rules()).iloc[0]
    assert g["verdict"] == verdict and g["rule"].startswith(rule) and (verdict == "correct" or g["firm"]), g.to_dict()
