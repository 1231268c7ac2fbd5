"""Text as its author wrote it: encoding damage in a gold answer or an answer is repaired (by ftfy) before
the grader reads either; text without damage is read as it is."""

from __future__ import annotations

import json

import pytest

from ragpipe.text.repair import repaired
from tests.commands import invoke


@pytest.mark.parametrize(
    "damaged, meant",
    [
        ("JosÃ© Saramago", "José Saramago"),
        ("2.45Â\xa0billion", "2.45\xa0billion"),  # a non-breaking space read as Windows-1252
        ("The companyâ€™s revenue", "The company’s revenue"),
        ("Ãœber", "Über"),
    ],
)
def test_mojibake_is_repaired(damaged, meant):
    assert repaired(damaged) == meant


@pytest.mark.parametrize("text", ["José Saramago", "Don’t say “hi” – ok", "ﬁnance", "naïve café", "plain"])
def test_text_without_damage_is_returned_as_written(text):
    assert repaired(text) is text


@pytest.mark.parametrize(
    "gold, answer",
    [
        ("JosÃ© Saramago", "It was written by José Saramago."),
        ("José Saramago", "It was written by JosÃ© Saramago."),
        ("2.45Â\xa0billion", "Revenue was 2.45 billion."),
    ],
)
def test_a_damaged_gold_or_answer_is_graded_as_its_author_wrote_it(tmp_path, gold, answer):
    questions, answers = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    questions.write_text(json.dumps({"id": "q", "question": "Who or what?", "gold_answer": gold}) + "\n")
    answers.write_text(json.dumps({"question_id": "q", "answer": answer}) + "\n")
    graded = invoke("grade", "--questions", str(questions), "--answers", str(answers), "--json")
    rows = [json.loads(line) for line in graded.output.splitlines() if line.startswith("{")]
    assert graded.exit_code == 0 and rows[0]["verdict"] == "correct", graded.output
