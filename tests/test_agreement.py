"""Agreement metrics on small hand-made tables, and the upstream label format."""

import json

import pandas as pd
import pytest

from ragpipe.answering.labels import read_labeled_file
from ragpipe.evaluation.agreement import agreement, cohen_kappa, grader_class
from ragpipe.evaluation.agreement_markdown import report_markdown

C, I, R = "Correct Answer", "Incorrect Answer", "Refusal"  # noqa: E741  the three human classes, as the papers write them


def test_kappa_textbook_values():
    # perfect agreement, chance-level agreement, and a worked 2x2 example (po=0.7, pe=0.5 -> 0.4)
    assert cohen_kappa([C, I, R], [C, I, R]) == 1.0
    assert cohen_kappa([C, C, I, I], [C, I, C, I]) == 0.0
    human = [C] * 5 + [I] * 5
    grader = [C] * 4 + [I] + [C] * 2 + [I] * 3
    assert cohen_kappa(human, grader) == pytest.approx(0.4)


def test_refusal_f1_false_correct_and_confusion():
    frame = pd.DataFrame(
        {
            "human": [R, R, R, C, I, I],
            "grader": [R, R, I, R, C, C],
            "question_type": ["metrics-generated", "x", "x", "x", "metrics-generated", "x"],
        }
    )
    a = agreement(frame)
    assert a["refusal"] == {"precision": round(2 / 3, 4), "recall": round(2 / 3, 4), "f1": round(2 / 3, 4)}
    assert a["false_correct"] == 2 and a["false_correct_numeric"] == 1
    assert a["confusion"][R] == {C: 0, I: 1, R: 2}
    assert a["accuracy"] == round(2 / 6, 4) and a["n"] == 6


def test_refusal_scores_are_na_where_no_one_declined():
    """No refusal among people's labels: recall and F1 are undefined (n/a), not 0.0; a grader that never
    declines where people did scores F1 0."""
    frame = pd.DataFrame({"human": [C, I, C], "grader": [C, I, I], "question_type": ["x"] * 3})
    a = agreement(frame)
    assert a["refusal"] == {"precision": None, "recall": None, "f1": None}
    assert "| n/a |" in report_markdown({**a, "grader_version": "g-test"})
    missed = agreement(pd.DataFrame({"human": [R, C], "grader": [I, C], "question_type": ["x"] * 2}))
    assert missed["refusal"] == {"precision": None, "recall": 0.0, "f1": 0.0}


def test_verdicts_map_to_human_classes():
    assert grader_class("correct", False) == C
    assert (
        grader_class("partial", False) == I
        and grader_class("wrong", False) == I
        and grader_class("ungradable", False) == I
    )
    assert grader_class("wrong", True) == R and grader_class("correct", True) == R


def test_upstream_format_including_empty_and_bad_rows(tmp_path):
    path = tmp_path / "gpt-9_oracle.jsonl"
    rows = [
        {"financebench_id": "q1", "model_name": "gpt-9", "eval_mode": "oracle", "model_answer": "$5", "label": C},
        {"financebench_id": "q2", "model_name": "gpt-9", "eval_mode": "oracle", "model_answer": "", "label": R},
        {"financebench_id": "q3", "model_name": "gpt-9", "eval_mode": "oracle", "model_answer": None, "label": I},
        {"financebench_id": "q4", "model_name": "gpt-9", "eval_mode": "oracle", "model_answer": "x", "label": "Maybe"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n{not json\n")
    frame, problems = read_labeled_file(path)
    assert list(frame["question_id"]) == ["q1", "q2", "q3"]
    assert list(frame["answer"]) == ["$5", "", ""]
    assert set(frame["answer_set"]) == {"labeled:gpt-9_oracle"} and set(frame["mode"]) == {"oracle"}
    assert [(p.line, p.field) for p in problems] == [(4, "label"), (5, "(line)")]


def test_an_empty_answer_is_graded_not_dropped(rules):
    from ragpipe.corpus.questions import Question
    from ragpipe.grading.grader import grade

    g = grade(Question(id="q", text="What was capex?", kind="answerable", money_key="$5"), "", [], rules)
    assert grader_class(g.verdict, g.declined) == I
