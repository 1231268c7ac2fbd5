"""A bad corpus manifest or rules file is refused in one line by the command that uses it; every other
command works (before, loading them at import made `sql` and `--help` print a 30-line traceback)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.commands import env_for, invoke, ragpipe
from tests.conftest import ROOT


@pytest.fixture()
def bad_env(tmp_path) -> dict:
    corpora = tmp_path / "corpora"
    shutil.copytree(ROOT / "corpora", corpora)
    (corpora / "evil.yaml").write_text(
        "name: evil\nadapter: demo\nsource: demo/documents.yaml\nquestions: ../../etc/passwd\n"
    )
    rules = tmp_path / "bad-rules.yaml"
    rules.write_text("declines: [\n")
    return env_for(tmp_path, RAGPIPE_CORPORA=str(corpora), RAGPIPE_RULES=str(rules))


def test_starting_a_command_reads_no_manifest_no_rules_and_loads_no_dagster(bad_env, demo_warehouse_once):
    probe = (
        "import sys; sys.argv = ['ragpipe', 'sql', 'SELECT 41 + 1 AS answer']\n"
        "from assets.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('dagster loaded' if 'dagster' in sys.modules else 'dagster not loaded')"
    )
    env = {**bad_env, "RAGPIPE_WAREHOUSE": str(demo_warehouse_once)}
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True)
    assert "42" in out.stdout and "dagster not loaded" in out.stdout, out.stdout + out.stderr


def test_read_only_commands_and_grade_with_good_rules_ignore_the_bad_files(bad_env, monkeypatch):
    for name in ("RAGPIPE_CORPORA", "RAGPIPE_RULES", "RAGPIPE_WAREHOUSE"):
        monkeypatch.setenv(name, bad_env[name])
    assert invoke("--help").exit_code == 0
    graded = invoke(
        "grade",
        "--rules",
        str(ROOT / "ragpipe/grading/rules.yaml"),
        "--questions",
        "tests/data/adhoc-questions.jsonl",
        "--answers",
        "tests/data/adhoc-answers.jsonl",
    )
    assert graded.exit_code == 0 and "amount-due" in graded.output, graded.output


@pytest.mark.parametrize(
    "command, said",
    [
        (["run", "--corpus", "demo", "--config", "default"], "evil.yaml: line 4 field questions"),
        (["regrade"], "bad-rules.yaml: line 2: cannot read rules: invalid YAML"),
    ],
)
def test_the_command_that_uses_a_bad_file_refuses_in_one_line(bad_env, command, said):
    out = ragpipe(bad_env, *command, timeout=120)
    assert out.returncode in (1, 2) and said in out.stderr + out.stdout, out.stdout + out.stderr
    said_lines = (out.stdout + out.stderr).strip().splitlines()
    assert "Traceback" not in out.stderr and len(said_lines) == 1, said_lines
