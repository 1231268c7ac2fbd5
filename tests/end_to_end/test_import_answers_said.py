"""`run --engine import` says every line it cannot read (file:line:field) and refuses a file none of whose
lines can be read, before any run; a value a problem echoes is cut, however long the line held it."""

from __future__ import annotations

import json

import duckdb
import pytest

from ragpipe.inputs.problems import Problem
from tests.commands import env_for, invoke, ragpipe

RUN = ("run", "--corpus", "demo", "--config", "default", "--engine", "import", "--answers")


def _demo_questions(warehouse) -> list[str]:
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        rows = conn.execute("SELECT question_id FROM questions WHERE corpus = 'demo' ORDER BY 1 LIMIT 2").fetchall()
    return [q for (q,) in rows]


def test_a_file_none_of_whose_lines_can_be_read_is_refused_in_one_line(demo_warehouse, tmp_path):
    q1, q2 = _demo_questions(demo_warehouse)
    lines = "".join(json.dumps({"question_id": q, "answer": "It is $2,150."}) + "\n" for q in (q1, q2))
    utf16 = tmp_path / "answers-utf16.jsonl"
    utf16.write_bytes(lines.encode("utf-16"))  # as some editors save: a byte-order mark, two bytes a character
    numbers = tmp_path / "numbers.jsonl"
    numbers.write_text(json.dumps({"question_id": q1, "answer": 2150}) + "\n")
    env = env_for(tmp_path, RAGPIPE_WAREHOUSE=str(demo_warehouse))
    for path, said in [(utf16, "save it as UTF-8"), (numbers, "field answer: a number, not a string")]:
        done = ragpipe(env, *RUN, str(path))
        out = done.stdout + done.stderr
        assert done.returncode == 2 and "none of its lines can be read" in out and said in out, out
        assert "materializing" not in out and "Traceback" not in out


@pytest.mark.end_to_end
def test_an_unreadable_line_is_said_and_its_question_says_why_it_has_no_answer(demo_warehouse, tmp_path):
    q1, q2 = _demo_questions(demo_warehouse)
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        json.dumps({"question_id": q1, "answer": "It is in the lease [1]."}) + "\n" + json.dumps({"question_id": q2, "answer": 7}) + "\n"
    )  # fmt: skip
    env = env_for(tmp_path, RAGPIPE_WAREHOUSE=str(demo_warehouse))
    done = ragpipe(env, *RUN, str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"skipped {path}:2: field answer: a number, not a string" in done.stderr
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        errors = dict(
            conn.execute("SELECT question_id, error FROM answers WHERE answer_set = 'import:mixed'").fetchall()
        )
    assert errors[q1] is None and f"its line could not be read: {path}:2: field answer" in errors[q2]
    assert "has no answer for question" in errors[next(q for q in errors if q not in (q1, q2))]


def test_a_five_megabyte_value_is_cut_where_a_problem_echoes_it(tmp_path):
    huge = "q" * 5_000_000
    message = f"unknown question {huge!r}"
    problem = Problem("f.jsonl", 3, huge, message)
    assert len(str(problem)) < 800 and str(problem).endswith(f"[cut: {len(message):,} characters]")
    questions, answers = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    questions.write_text('{"id": "q", "question": "Who won?", "gold_answer": "Dana Ortiz"}\n')
    answers.write_text(json.dumps({"question_id": huge, "answer": "Dana."}) + "\n")
    graded = invoke("grade", "--questions", str(questions), "--answers", str(answers), "--json")
    assert f"{answers}:1: field question_id: unknown question 'qqq" in graded.output
    assert len(graded.output) < 5_000  # not the 5 MB id


@pytest.mark.end_to_end
def test_a_token_count_past_a_bigint_is_no_count_and_no_later_run_fails_on_it(demo_warehouse, tmp_path):
    q1, q2 = _demo_questions(demo_warehouse)
    path = tmp_path / "huge-usage.jsonl"
    huge = {"prompt_tokens": 99999999999999999999999, "completion_tokens": 7}
    path.write_text(
        json.dumps({"question_id": q1, "answer": "It is in the lease [1].", "usage": huge}) + "\n"
        + json.dumps({"question_id": q2, "answer": "See the lease [2]."}) + "\n"
    )  # fmt: skip
    env = env_for(tmp_path, RAGPIPE_WAREHOUSE=str(demo_warehouse))
    for _ in range(2):  # the run that reads it, and the next: once, the answer log failed every later run
        done = ragpipe(env, *RUN, str(path))
        assert done.returncode == 0, done.stdout + done.stderr
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        tokens = conn.execute(
            "SELECT prompt_tokens, completion_tokens FROM answers WHERE answer_set = 'import:huge-usage' "
            "AND question_id = ?",
            [q1],
        ).fetchone()
    assert tokens == (None, 7)


@pytest.mark.parametrize(
    ("extra", "field", "said"),
    [
        ({"citations": "notalist"}, "citations", "a string: give a list of strings"),
        ({"citations": ["p1", None]}, "citations", "a list holding other than strings"),
        ({"latency_ms": float("nan")}, "latency_ms", "nan: give a finite number"),
        ({"latency_ms": float("inf")}, "latency_ms", "inf: give a finite number"),
        ({"latency_ms": -5}, "latency_ms", "-5: give a finite number"),
        ({"latency_ms": True}, "latency_ms", "True: give a finite number"),
    ],
)
def test_an_optional_field_that_is_not_what_it_says_refuses_its_line_naming_it(tmp_path, extra, field, said):
    from ragpipe.answering.engines.import_file import ImportEngine

    path = tmp_path / "answers.jsonl"
    good = {"question_id": "q2", "answer": "It is $2,150.", "citations": ["p1"], "latency_ms": 12.5}
    path.write_text(
        json.dumps({"question_id": "q1", "answer": "It is $2,150.", **extra}) + "\n" + json.dumps(good) + "\n"
    )
    engine = ImportEngine(str(path))
    assert list(engine.rows) == ["q2"]  # the rest of the file is kept
    (problem,) = engine.problems
    assert (problem.line, problem.field) == (1, field) and said in problem.message, str(problem)


def test_a_second_answer_to_one_question_is_said_and_the_first_kept(tmp_path):
    from ragpipe.answering.engines.import_file import ImportEngine

    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps({"question_id": "q1", "answer": a}) + "\n" for a in ("first", "second")))
    engine = ImportEngine(str(path))
    assert engine.rows["q1"]["answer"] == "first"
    (problem,) = engine.problems
    assert (problem.line, problem.field) == (2, "question_id") and "a second answer to 'q1'" in problem.message
