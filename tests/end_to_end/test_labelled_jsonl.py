"""`ragpipe agreement --labels FILE.jsonl`: the grader graded on anyone's labelled answers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ragpipe.corpus.gold_text import gold_text_needles
from ragpipe.grader_agreement.labelled_jsonl import CORPUS, read_labelled_jsonl
from tests.conftest import ROOT

EXAMPLE = ROOT / "tests" / "data" / "labelled-answers.jsonl"


def test_the_example_file_loads_line_by_line_and_names_the_bad_line():
    labelled = read_labelled_jsonl(EXAMPLE)
    lines = EXAMPLE.read_text().splitlines()
    assert len(labelled.answers) == len(lines) - 1
    [problem] = labelled.problems
    assert (problem.line, problem.field) == (12, "label")
    assert len(labelled.questions) == len({json.loads(line)["question"] for line in lines})


def test_needles_come_from_the_gold_answer_never_the_question():
    labelled = read_labelled_jsonl(EXAMPLE)
    needles = gold_text_needles(CORPUS, labelled.questions)
    kept = needles[needles["status"] == "kept"]
    race = next(q.id for q in labelled.questions if q.text.startswith("Who won"))
    assert "Dana Ortiz" in set(kept.loc[kept["question_id"] == race, "needle"])
    assert not any("race" in n.lower() for n in kept["needle"])


def test_agreement_on_the_example_file(tmp_path):
    """Every labelled example is one the grader must get right; the report says so per system."""
    out = subprocess.run(
        [Path(sys.executable).parent / "ragpipe", "agreement", "--labels", str(EXAMPLE), "--json"],
        cwd=ROOT,
        env={"RAGPIPE_WAREHOUSE": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report = json.loads(out.stdout)
    assert report["n"] == len(EXAMPLE.read_text().splitlines()) - 1
    mismatched = {h: {g: n for g, n in row.items() if g != h and n} for h, row in report["confusion"].items()}
    assert all(not v for v in mismatched.values()), mismatched
    assert set(report["by_file"]) == {"model-a", "model-b", "model-c"}
    assert "labelled-answers.jsonl:12: field label" in out.stderr
    assert not (tmp_path / "ragpipe.duckdb").exists()  # nothing stored: the file is graded in memory


def test_a_gold_answer_may_list_its_accepted_forms(tmp_path, rules):
    """Open-domain sets give several accepted answers ("William Shakespeare", "Shakespeare", "the Bard"):
    any one is the key; a list of only "no" is the yes/no key; an empty list is a problem on its line."""
    from ragpipe.grader_agreement.labelled_jsonl import agreement_for_jsonl

    forms = ["William Shakespeare", "Shakespeare", "the Bard"]
    lines = [
        {"question": "Who wrote Hamlet?", "gold_answer": forms, "answer": "It was Shakespeare.", "label": "correct"},
        {"question": "Who wrote Hamlet?", "gold_answer": forms, "answer": "The Bard of Avon.", "label": "correct"},
        {"question": "Who wrote Hamlet?", "gold_answer": forms, "answer": "Christopher Marlowe.", "label": "incorrect"},
        {"question": "Can penguins fly?", "gold_answer": ["no"], "answer": "Penguins cannot fly.", "label": "correct"},
        {"question": "Can penguins fly?", "gold_answer": [], "answer": "They cannot.", "label": "correct"},
    ]
    path = tmp_path / "labels.jsonl"
    path.write_text("".join(json.dumps({**line, "system": f"s{i}"}) + "\n" for i, line in enumerate(lines)))
    report = agreement_for_jsonl(path, rules)
    assert report["n"] == 4 and report["accuracy"] == 1.0
    [problem] = report["problems"]
    assert ":5: field gold_answer" in problem


CURRENT_RATIO = {"id": "cr", "question": "What is the FY2022 current ratio?", "gold_answer": "1.47"}
RATIO_ANSWERS = {
    "right": "The FY2022 current ratio was 1.47.",
    "wrong": "The FY2022 current ratio was 1.74.",
    "decline": "I cannot find the current ratio in the documents.",
}


def test_one_question_line_is_graded_alike_by_grade_and_agreement(tmp_path):
    """The issue's line (only a gold answer): `grade` mines its needles from the gold text as `agreement`
    does, so both give each answer the same verdict and rule, none of them ungradable."""
    questions, answers, labels = (tmp_path / f for f in ("q.jsonl", "a.jsonl", "l.jsonl"))
    questions.write_text(json.dumps(CURRENT_RATIO) + "\n")
    answers.write_text("".join(json.dumps({"question_id": "cr", "answer": a}) + "\n" for a in RATIO_ANSWERS.values()))
    labels.write_text(
        "".join(
            json.dumps({**CURRENT_RATIO, "answer": a, "label": "correct", "system": name}) + "\n"
            for name, a in RATIO_ANSWERS.items()
        )
    )
    ragpipe = Path(sys.executable).parent / "ragpipe"
    env = {"RAGPIPE_WAREHOUSE": str(tmp_path), "PATH": "/usr/bin:/bin"}
    graded = subprocess.run(
        [ragpipe, "grade", "--questions", questions, "--answers", answers, "--jsonl"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert graded.returncode == 0 and "no answer" not in graded.stderr, graded.stderr
    by_grade = [(r["verdict"], r["rule"]) for r in map(json.loads, graded.stdout.splitlines())]
    assert [v for v, _ in by_grade] == ["correct", "wrong", "wrong"], by_grade

    from ragpipe.corpus.questions import questions_frame
    from ragpipe.grader_agreement.labelled_jsonl import read_labelled_jsonl
    from ragpipe.grading.grade_table import grade_answers
    from ragpipe.grading.rules import load_rules

    labelled = read_labelled_jsonl(labels)
    assert not labelled.problems and [q.id for q in labelled.questions] == ["cr"]  # the line as `grade` reads it
    frame = grade_answers(
        labelled.answers,
        questions_frame(CORPUS, labelled.questions),
        gold_text_needles(CORPUS, labelled.questions),
        load_rules(),
    )
    by_agreement = {
        s.removeprefix("labeled:"): (v, r) for s, v, r in zip(frame["answer_set"], frame["verdict"], frame["rule"])
    }
    assert [by_agreement[name] for name in RATIO_ANSWERS] == by_grade


def test_the_documented_example_loads_without_a_problem():
    """The docs' example is clean: a user trying it meets no error first (the fixture beside the tests keeps
    the bad line the tests need)."""
    from ragpipe.grader_agreement.labelled_jsonl import read_labelled_jsonl

    documented = ROOT / "docs" / "examples" / "labelled-answers.jsonl"
    assert read_labelled_jsonl(documented).problems == []
    assert len(read_labelled_jsonl(documented).answers) == len(read_labelled_jsonl(EXAMPLE).answers)
