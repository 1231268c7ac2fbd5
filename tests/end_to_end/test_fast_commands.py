"""Commands that only read answer at once: none loads Dagster, scipy or matplotlib unless it needs them.

One process runs them in turn (as `ragpipe` would, through assets/cli.py) and says, after each, which
heavy libraries are loaded; modules only accumulate, so the first command to load one is the one named.
`sql` loads not even pandas. `bench/cli_start.py` times `sql` against `python -c "import duckdb"`.
"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT

HEAVY = ("dagster", "scipy", "matplotlib", "pandas", "bm25s", "httpx")
PROBE = f"""
import contextlib, io, json, sys
HEAVY = {HEAVY!r}
from assets.cli import main
seen = {{}}
for args in json.loads(sys.argv[1]):
    sys.argv = ["ragpipe", *args]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            main()
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    seen[" ".join(args[:2])] = [code, sorted(m for m in HEAVY if m in sys.modules)]
print(json.dumps(seen))
"""


def test_read_only_commands_load_no_orchestrator_nor_what_they_do_not_need(demo_warehouse_once):
    commands = [
        ["--help"],
        ["sql", "SELECT count(*) FROM grades"],
        ["scorecard"],
        ["delta", "--corpus", "demo", "--config", "default"],
        ["rules", "show"],
        ["answers", "list"],
        ["grade", "--questions", "tests/data/adhoc-questions.jsonl", "--answers", "tests/data/adhoc-answers.jsonl"],
        ["compare", "--corpus", "demo", "--config", "default", "--a", "extractive", "--b", "extractive"],
    ]
    env = {"RAGPIPE_WAREHOUSE": str(demo_warehouse_once), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(commands)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert "Traceback" not in out.stderr and seen["sql SELECT count(*) FROM grades"][0] == 0, out.stderr[-2000:]
    assert all(code in (0, 1) for code, _ in seen.values()), seen  # delta of a single grading says so, exit 1
    loaded = {command: set(modules) for command, (_, modules) in seen.items()}
    assert loaded["--help"] == set() and loaded["sql SELECT count(*) FROM grades"] == set()
    for command in ("scorecard", "delta --corpus", "rules show", "answers list", "grade --questions"):
        assert loaded[command] <= {"pandas"}, (command, loaded[command])
    assert "dagster" not in loaded["compare --corpus"] and "matplotlib" not in loaded["compare --corpus"]


def test_messages_name_what_happened(tmp_path):
    """A typo is named as one; an unrecorded version says so; a graded row is never called skipped."""
    from tests.commands import invoke

    typo = invoke("scorecard", "--corpus", "typo", warehouse=tmp_path / "wh")
    assert typo.exit_code == 2 and "unknown corpus 'typo'; known: aragog, demo" in typo.output
    empty = invoke("scorecard", "--corpus", "demo", warehouse=tmp_path / "wh")
    assert empty.exit_code == 1 and "no scorecards yet for demo/any configuration" in empty.output
    shown = invoke("rules", "show", warehouse=tmp_path / "wh")
    assert shown.exit_code == 0 and "not recorded yet (no grading has used it)" in shown.output.splitlines()[0]
    assert "None" not in shown.output.splitlines()[0]
    questions, answers = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    questions.write_text('{"id": "q", "question": "Who won?", "gold_answer": "Dana Ortiz"}\n')
    answers.write_text(
        '{"question_id": "q", "answer": "Dana Ortiz."}\n{"question_id": "q", "answer": "Lee."}\n{"question_id": "x", "answer": "?"}\n'
    )
    graded = invoke("grade", "--questions", str(questions), "--answers", str(answers), "--json")
    assert graded.exit_code == 0
    assert "graded, note: " in graded.output and "a.jsonl:2: field question_id: a second answer" in graded.output
    assert "skipped " + str(answers) + ":3: field question_id: unknown question 'x'" in graded.output
    assert "skipped " + str(answers) + ":2" not in graded.output


def test_exempt_is_explained_where_it_appears():
    from ragpipe.cli.app import scorecard_notes

    card = {
        "corpus": "demo",
        "config": "default",
        "grader_version": "g-x",
        "judged_as": "question kind",
        "money_bar": "FAIL",
        "wrong_money": 2,
    }
    assert not any("exempt" in n for n in scorecard_notes([{**card, "blocked": True}]))
    (note,) = [n for n in scorecard_notes([{**card, "blocked": False}]) if n.startswith("exempt")]
    assert "people labelled" in note and "not blocked" in note


def test_one_way_to_write_an_interval():
    """`[low, high]` everywhere, the level said once: scorecard, leaderboard, compare and gate agree."""
    from ragpipe.scoring.compare import compare_line
    from ragpipe.scoring.interval_text import interval_text

    assert (
        interval_text(80.24, 91.66) == "[80.2, 91.7]" and interval_text(-0.3232, 0.0, True, 4) == "[-0.3232, +0.0000]"
    )
    assert interval_text(None, 0.5) == "-"
    result = {"a": "x", "b": "y", "n": 31, "wins": 1, "losses": 6, "ties": 24, "a_accuracy": 0.935,
              "b_accuracy": 0.774, "diff": -0.161, "ci_low": -0.323, "ci_high": 0.0, "mcnemar_p": 0.125}  # fmt: skip
    line = compare_line(result, "demo/default")
    assert "(B - A -16.1 points, 95% interval [-32.3, +0.0])" in line and " to " not in line
