"""`ragpipe grade` skips the bad lines it promises to skip, naming file, line and field, and grades the rest."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import ROOT

QUESTIONS = [
    {
        "id": "rent",
        "question": "How much is the rent?",
        "kind": "answerable",
        "gold_answer": "$2,150",
        "money_key": "$2,150",
    }
]


def test_bad_answer_lines_are_problems_and_good_ones_are_graded(tmp_path):
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    answers = tmp_path / "a.jsonl"
    lines = [
        json.dumps({"question_id": ["rent"], "answer": "$2,150"}),  # a list where an id goes
        "[" * 100_000 + "]" * 100_000,  # valid JSON, nested past the parser's depth
        json.dumps({"question_id": "rent", "answer": "$2,150", "citations": "abc"}),  # a string where a list goes
        json.dumps({"question_id": "rent", "answer": 5}),
        json.dumps({"question_id": "rent", "answer": "The rent is $2,150.", "citations": ["lease"]}),
    ]
    answers.write_text("\n".join(lines) + "\n")
    out = subprocess.run(
        [
            f"{os.path.dirname(sys.executable)}/ragpipe",
            "grade",
            "--questions",
            str(questions),
            "--answers",
            str(answers),
            "--json",
        ],
        cwd=ROOT,
        env={**os.environ, "RAGPIPE_WAREHOUSE": str(tmp_path / "wh")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Traceback" not in out.stderr
    graded = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(g["question_id"], g["verdict"]) for g in graded] == [("rent", "correct")]
    skipped = out.stderr.splitlines()
    for line, field in [(1, "question_id"), (2, "(line)"), (3, "citations"), (4, "answer")]:
        assert any(f"a.jsonl:{line}: field {field}" in s for s in skipped), (line, field, skipped)
