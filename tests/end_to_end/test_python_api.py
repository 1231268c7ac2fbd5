"""`ragpipe.evaluate`, `summary`, `compare` and `agreement`: the commands' answers from Python, with
nothing but rows in memory or files, and a bad row costing only itself."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pandas as pd
import pytest

import ragpipe
from ragpipe.scoring.compare import compare_line
from ragpipe.warehouse.nulls import records
from tests.commands import invoke
from tests.conftest import ROOT

QUESTIONS = ROOT / "tests" / "data" / "adhoc-questions.jsonl"
ANSWERS = ROOT / "tests" / "data" / "adhoc-answers.jsonl"
LABELLED = ROOT / "tests" / "data" / "labelled-answers.jsonl"


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_evaluate_grades_as_the_grade_command_does():
    from_files = ragpipe.evaluate(QUESTIONS, ANSWERS)
    result = invoke("grade", "--questions", str(QUESTIONS), "--answers", str(ANSWERS), "--jsonl")
    assert result.exit_code == 0, result.output
    from_command = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert records(from_files) == from_command
    # the quoted examples of the brief: $42.99 beside the amount due, $44,322 owed but $450,658 said
    verdicts = dict(zip(from_files["question_id"], from_files["verdict"]))
    assert verdicts["amount-due"] == "correct" and verdicts["tax-owed"] == "wrong"


def test_rows_in_memory_and_data_frames_grade_like_the_files():
    from_files = ragpipe.evaluate(QUESTIONS, ANSWERS)
    from_lists = ragpipe.evaluate(_lines(QUESTIONS), _lines(ANSWERS))
    from_frames = ragpipe.evaluate(pd.DataFrame(_lines(QUESTIONS)), pd.DataFrame(_lines(ANSWERS)))
    pd.testing.assert_frame_equal(from_files, from_lists)
    pd.testing.assert_frame_equal(from_files, from_frames)


def test_a_data_frame_with_a_column_of_its_own_grades_every_question():
    """An extra column (a notebook's bookkeeping) once cost every question; it is left out, and said."""
    frame = pd.DataFrame(_lines(QUESTIONS)).assign(reviewer="ana", batch=3)
    with pytest.warns(UserWarning, match="questions: column\\(s\\) reviewer, batch are not questions fields"):
        grades = ragpipe.evaluate(frame, ANSWERS)
    pd.testing.assert_frame_equal(grades, ragpipe.evaluate(QUESTIONS, ANSWERS))


@pytest.mark.parametrize("missing", ["questions", "answers"])
def test_none_for_rows_is_a_clear_type_error(missing):
    args = {"questions": QUESTIONS, "answers": ANSWERS, missing: None}
    with pytest.raises(TypeError, match=f"{missing}: expected a path, a DataFrame or rows of mappings, not NoneType"):
        ragpipe.evaluate(args["questions"], args["answers"])


def test_a_question_with_only_a_gold_answer_is_graded_from_it():
    """Issue 28's example: the gold text is the needle source, as in `agreement`."""
    question = {"id": "cr", "question": "What is the FY2022 current ratio?", "gold_answer": "1.47"}
    grades = ragpipe.evaluate([question], [{"question_id": "cr", "answer": "The current ratio was 1.47."}])
    assert grades["verdict"].tolist() == ["correct"]
    wrong = ragpipe.evaluate([question], [{"question_id": "cr", "answer": "The current ratio was 1.74."}])
    assert wrong["verdict"].tolist() != ["correct"]


def test_a_bad_row_costs_only_itself_and_is_said():
    answers = _lines(ANSWERS) + [{"question_id": "nope", "answer": "x"}, {"answer": "no id"}]
    with pytest.warns(UserWarning, match="<answers>:5: field question_id") as caught:
        grades = ragpipe.evaluate(QUESTIONS, answers)
    # ragpipe's own: the warnings recorded also hold whatever a garbage collection lets out meanwhile (an
    # earlier test's unclosed file says so in a ResourceWarning), which is not this call's to count
    said = [str(w.message) for w in caught if "row(s) " in str(w.message)]
    assert len(said) == 1 and "skipped" in said[0] and grades.attrs["notes"] == []  # nothing graded with a note
    assert len(grades) == len(_lines(ANSWERS))
    assert any("unknown question 'nope'" in p for p in grades.attrs["problems"])
    with pytest.raises(ragpipe.api.InputProblems, match="<answers>:4: field question_id: unknown question"):
        ragpipe.evaluate(QUESTIONS, answers, on_problem="raise")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ragpipe.evaluate(QUESTIONS, answers, on_problem="ignore")
    with pytest.raises(FileNotFoundError, match="answers: no file"):
        ragpipe.evaluate(QUESTIONS, ROOT / "no-such.jsonl")


def test_summary_adds_up_and_names_the_unanswered():
    some = _lines(ANSWERS)[:-1]
    grades = ragpipe.evaluate(QUESTIONS, some)
    s = ragpipe.summary(grades)
    assert s["answers"] == len(some) == s["correct"] + s["partial"] + s["wrong"] + s["ungradable"]
    assert s["unanswered"] == len(_lines(QUESTIONS)) - len({a["question_id"] for a in some}) > 0
    # an unanswered question counts against the system it was asked of (it once dropped out: 6 of 9, not 6 of 10)
    assert s["accuracy"] == round(s["correct"] / (s["graded"] + s["unanswered"]), 4)
    # typed, and read as the plain counts too: the `grade` command's line, and a dict equal to the mapping
    from ragpipe.grading.summary import grade_counts, summary_line

    assert (s.answers, s.accuracy, s.wrong_money) == (s["answers"], s["accuracy"], s["wrong_money"])
    assert s == dict(s) == grade_counts(grades.to_dict("records"), s["unanswered"])
    assert s.summary() == summary_line(dict(s)) and repr(s) == f"GradeCounts({s.summary()})"


def test_compare_pairs_by_question():
    a = ragpipe.evaluate(QUESTIONS, ANSWERS)
    right = [{"question_id": q["id"], "answer": q.get("gold_answer", "")} for q in _lines(QUESTIONS)]
    b = ragpipe.evaluate(QUESTIONS, right, on_problem="ignore")
    result = ragpipe.compare(a, b, "mine", "gold")
    assert (result["a"], result["b"], result["n"]) == (
        "mine",
        "gold",
        len(set(a["question_id"]) & set(b["question_id"])),
    )
    # B leaves a question unanswered: it counts against B, on every question either answered
    fewer = b[b["question_id"] != b["question_id"].iloc[0]]
    short = ragpipe.compare(a, fewer, "mine", "gold")
    left = b["question_id"].iloc[0]
    assert short["n"] == result["n"] and short["unanswered_b"] == 1 and short["only_a"] == [left]
    assert short["b_correct"] == result["b_correct"] - (b.set_index("question_id").loc[left, "verdict"] == "correct")
    assert "1 unanswered by B: counted against it" in compare_line(short, "here")
    assert result["wins"] + result["losses"] + result["ties"] == result["n"]
    assert result["ci_low"] <= result["diff"] <= result["ci_high"]
    assert {f["question_id"] for f in result["flips"]} == {
        q
        for q in set(a["question_id"]) & set(b["question_id"])
        if (a.set_index("question_id").loc[q, "verdict"] == "correct")
        != (b.set_index("question_id").loc[q, "verdict"] == "correct")
    }


def test_agreement_matches_the_agreement_command():
    with pytest.warns(UserWarning, match="labelled-answers.jsonl:12: field label"):
        report = ragpipe.agreement(LABELLED)
    result = invoke("agreement", "--labels", str(LABELLED), "--json")
    assert result.exit_code == 0, result.output
    from_command = json.loads(result.stdout[result.stdout.index("{") :])
    assert {k: report[k] for k in ("n", "accuracy", "kappa", "confusion")} == {
        k: from_command[k] for k in ("n", "accuracy", "kappa", "confusion")
    }
    assert ragpipe.agreement(_lines(LABELLED), on_problem="ignore")["kappa"] == report["kappa"]


def test_import_ragpipe_loads_neither_pandas_nor_the_grader():
    code = "import sys, ragpipe; print(sorted(m for m in ('pandas', 'ragpipe.api', 'duckdb') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_the_readmes_python_snippet_runs_on_the_files_it_names():
    """The README's "From Python" block, run as a reader would paste it, from the project folder: every file
    it names exists, and what it prints is what the comments say."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## From Python") :]
    code = section[section.index("```python\n") + len("```python\n") : section.index("```\n", 12)]
    for name in set(__import__("re").findall(r'"(tests/data/[^"]+)"', code)):
        assert (ROOT / name).is_file(), name
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    lines = out.stdout.splitlines()
    assert lines[0].startswith("GradeCounts(3 answers: 2 correct,")
    assert (
        lines[1].startswith("A A vs B B") and "(B - A -33.3 points" in lines[1]
    )  # B loses the amount due, the deposit
    assert lines[2].startswith("11 labelled answers: accuracy ") and "false correct 0" in lines[2]
    assert "scope" in lines[3] and any(line.split()[1:3] == ["overall", "all"] for line in lines[4:])


def test_agreement_returns_a_result_with_a_table_and_a_line():
    from ragpipe.grader_agreement.result import AgreementResult

    result = ragpipe.agreement(LABELLED, on_problem="ignore")
    assert isinstance(result, AgreementResult)
    frame = result.frame
    overall = frame[frame["scope"] == "overall"].iloc[0]
    assert overall["n"] == result["n"] and overall["kappa"] == result["kappa"]
    assert set(frame["scope"]) >= {"overall", "file", "firmness"}
    assert result.summary().startswith(f"{result['n']} labelled answers: accuracy {result['accuracy']}")
    assert "1 row(s) skipped" in result.summary()  # line 12 of the file is refused, and said
    assert json.loads(json.dumps(dict(result)))["kappa"] == result["kappa"]  # the report, as --json prints it


def test_evaluate_grades_with_a_judge_as_the_grade_command_does(tmp_path, monkeypatch):
    """`ragpipe.evaluate(..., judge=NAME)`: the judge asked (a real chat server on 127.0.0.1), its verdicts
    applied as `ragpipe grade --judge` applies them, the grader version naming it, nothing written."""
    from tests.chat_server import ChatServer

    lenient = 'judge:{"verdict": "correct", "reason": "lenient"}'
    questions, answers = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    signer = {"id": "signer", "question": "Who signed the lease?", "kind": "answerable", "gold_answer": "Dana Ortiz"}
    questions.write_text(QUESTIONS.read_text() + json.dumps(signer) + "\n")
    answers.write_text(
        ANSWERS.read_text() + json.dumps({"question_id": "signer", "answer": "Pat Lee signed it."}) + "\n"
    )
    with ChatServer(default=lenient) as server:
        judges = tmp_path / "judges.yaml"
        entry = {"base_url": server.base_url, "model": "judge-model", "api_key_env": "RAGPIPE_TEST_KEY"}
        judges.write_text(json.dumps({"judges": {"lenient": entry}}))
        env = {"RAGPIPE_JUDGES": str(judges), "RAGPIPE_TEST_KEY": "sk-test", "RAGPIPE_WAREHOUSE": str(tmp_path / "wh")}
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        judged = ragpipe.evaluate(questions, answers, judge="lenient", judge_on="all")
        wrote = (tmp_path / "wh").exists()
        result = invoke("grade", "--questions", str(questions), "--answers", str(answers), "--jsonl",
                        "--judge", "lenient", "--judge-on", "all", env=env)  # fmt: skip
        with pytest.raises(ValueError, match="judge_on takes"):
            ragpipe.evaluate(questions, answers, judge="lenient", judge_on="some")
    rules_only = ragpipe.evaluate(questions, answers)
    assert server.requests and len(judged.attrs["judgments"]) > 0 and not wrote
    assert set(judged["grader_version"]) == {v for v in judged["grader_version"] if "+j-" in v}
    from_command = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [r["verdict"] for r in records(judged)] == [r["verdict"] for r in from_command]
    assert judged["grader_version"].iloc[0] == from_command[0]["grader_version"]
    lifted = (judged["verdict"] == "correct") & (rules_only["verdict"] != "correct")
    assert lifted.any() and not (lifted & judged["money_question"]).any()  # no judge lifts a money verdict


def test_the_api_is_listed_and_a_comparison_reads_as_a_sentence():
    """`dir(ragpipe)` lists the API, and `ragpipe.compare(...)` prints what `ragpipe compare` says (a bare
    `-0.3333` once), while reading as the mapping it was."""
    assert {"evaluate", "summary", "compare", "agreement"} <= set(dir(ragpipe))
    a, b = (
        ragpipe.evaluate(QUESTIONS, ANSWERS),
        ragpipe.evaluate(QUESTIONS, ROOT / "tests" / "data" / "adhoc-answers-other.jsonl"),
    )
    result = ragpipe.compare(a, b, "mine", "theirs")
    assert result.summary() == repr(result) == compare_line(dict(result), "the questions given")
    assert result.summary().startswith("A mine vs B theirs") and "95% interval" in result.summary()
    assert result["diff"] == dict(result)["diff"] and json.loads(json.dumps(dict(result)))["n"] == result["n"]
