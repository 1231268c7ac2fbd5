"""Agreement metrics on small hand-made tables, and the upstream label format."""

import json

import pandas as pd
import pytest

from ragpipe.answering.labels import read_labeled_file
from ragpipe.grader_agreement.agreement import agreement, cohen_kappa, grader_class
from ragpipe.grader_agreement.agreement_markdown import report_markdown

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


def test_each_deciding_rule_says_what_it_decided_and_how_often_people_disagree():
    """The needle rules' half of the collision audit: the rule that passed an answer people reject is
    named with it. On the labels' scale: with no refusal label, a decline counts as incorrect."""
    from ragpipe.grader_agreement.agreement import agreement_report

    frame = pd.DataFrame(
        {
            "human": [C, I, C, I, C],
            "grader": [C, C, I, I, R],
            "rule": ["needles.mined.all", "needles.mined.all", "needles.mined.none", "money.wrong_figure", None],
            "question_type": ["x"] * 5,
            "file": ["f"] * 5,
        }
    )
    rules = agreement_report(frame)["by_rule"]
    assert rules["needles.mined.all"] == {"n": 2, "disagree": 1, "people": {C: 1, I: 1}, "grader": {C: 2}}
    assert rules["needles.mined.none"]["disagree"] == 1 and rules["money.wrong_figure"]["disagree"] == 0
    assert rules["none"] == {"n": 1, "disagree": 1, "people": {C: 1}, "grader": {I: 1}}  # the decline, folded


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


def test_the_agreement_command_reports_every_answer_under_the_rule_that_decided_it(tmp_path):
    from tests.commands import invoke

    lines = [  # the second: the gold named and passed, which the person calls wrong
        {"question": "Who won the 2019 race?", "gold_answer": "Dana Ortiz", "answer": "Dana Ortiz.", "label": "correct"},
        {"question": "Who won the 2020 race?", "gold_answer": "Lee Park", "answer": "Not Lee Park: Kim Ode.",
         "label": "incorrect"},
        {"question": "What was the deposit?", "answer": "The lease does not say.", "label": "refusal"},
    ]  # fmt: skip
    path = tmp_path / "three.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = invoke("agreement", "--labels", str(path), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout[result.stdout.index("{") :])
    rules = report["by_rule"]
    assert sum(r["n"] for r in rules.values()) == report["n"] == 3
    assert sum(r["disagree"] for r in rules.values()) == 1 and rules["needles.mined.all"] == {
        "n": 2,
        "disagree": 1,
        "people": {"Correct Answer": 1, "Incorrect Answer": 1},
        "grader": {"Correct Answer": 2},
    }
    shown = invoke("agreement", "--labels", str(path)).stdout
    assert "people disagree" in shown and "needles.mined.all" in shown
