"""A check of your own, from your own package: registered under the entry-point group `ragpipe.checks`, it
is discovered, given its rules section, graded with, versioned and ablated like the built-in checks, with
no file of ragpipe touched (docs/grader.md, "A check of your own")."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.commands import RAGPIPE
from tests.conftest import ROOT

PLUGIN = '''"""An answer that shouts is wrong: a check of a user's own package."""

from pydantic import BaseModel

from ragpipe.grading.checks.view import Check, Finding


class Shouting(BaseModel):  # rules.yaml `shouting:`; the defaults hold without it
    marks: int = 3


def run(view, rules):
    if "!" * rules.shouting.marks in view.whole:
        return Finding("shouting", "wrong", "shouts", "shouting.too_loud")
    return None


CHECK = Check("shouting", run, "an answer that shouts", order=25, sections={"shouting": Shouting},
              rules=("shouting.too_loud",))
'''


def _install(site: Path, source: str = PLUGIN) -> None:
    """`shouting_check` as pip would leave it: the package, and a dist-info naming its entry point."""
    (site / "shouting_check").mkdir(parents=True, exist_ok=True)
    (site / "shouting_check" / "__init__.py").write_text(source)
    info = site / "shouting_check-0.1.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: shouting-check\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[ragpipe.checks]\nshouting = shouting_check:CHECK\n")


def _ragpipe(site: Path | None, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site) if site else ""}
    env.pop("RAGPIPE_RULES", None)
    done = subprocess.run([RAGPIPE, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def _files(tmp_path: Path) -> tuple[Path, Path, Path]:
    questions, answers, labels = tmp_path / "q.jsonl", tmp_path / "a.jsonl", tmp_path / "labels.jsonl"
    question = {"id": "due", "question": "What is the amount due?", "gold_answer": "$26.99", "money_key": "$26.99"}
    questions.write_text(json.dumps(question) + "\n")
    answers.write_text(
        json.dumps({"question_id": "due", "answer": "The amount due is $26.99!!!"}) + "\n"
        + json.dumps({"question_id": "due", "answer": "The amount due is $26.99."}) + "\n"
    )  # fmt: skip
    labels.write_text(
        "".join(
            json.dumps({"question": "What is the amount due?", "gold_answer": "$26.99", "answer": a, "label": lab})
            + "\n"
            for a, lab in (("The amount due is $26.99!!!", "incorrect"), ("The amount due is $26.99.", "correct"))
        )
    )
    return questions, answers, labels


def test_a_check_from_your_own_package_is_found_versioned_and_ablated(tmp_path):
    questions, answers, labels = _files(tmp_path)
    plain = [json.loads(line) for line in _ragpipe(None, "grade", "--questions", str(questions), "--answers", str(answers), "--json").stdout.splitlines()]  # fmt: skip
    assert [g["verdict"] for g in plain] == ["correct", "correct"]

    site = tmp_path / "site"
    _install(site)
    grade_args = ("grade", "--questions", str(questions), "--answers", str(answers), "--json")
    plugged = [json.loads(line) for line in _ragpipe(site, *grade_args).stdout.splitlines()]
    # found, in its place (after the money guard), and graded with: the shouting answer is wrong by its rule
    assert plugged[0]["verdict"] == "wrong" and plugged[0]["rule"] == "shouting.too_loud"
    assert plugged[1]["verdict"] == "correct"
    # versioned: the plug-in is part of the ruler, and an edit to it is a new version too
    assert plugged[0]["grader_version"] != plain[0]["grader_version"]
    _install(site, PLUGIN.replace("marks: int = 3", "marks: int = 4"))
    edited = [json.loads(line) for line in _ragpipe(site, *grade_args).stdout.splitlines()]
    assert edited[0]["grader_version"] not in (plain[0]["grader_version"], plugged[0]["grader_version"])
    assert edited[0]["verdict"] == "correct"  # its own rules section read: four marks now

    # ablated like the built-in checks: switched off, the people's label of the shouting answer is missed
    _install(site)
    report = json.loads(_ragpipe(site, "agreement", "--labels", str(labels), "--ablate", "--json").stdout)
    (row,) = [r for r in report["ablation"] if r["check"] == "shouting"]
    assert row["rules"] == "shouting" and row["earned"] == 1 and row["cost"] == 0


def test_a_plugin_that_is_no_check_is_refused_naming_its_entry_point(tmp_path):
    site = tmp_path / "site"
    _install(site, "CHECK = 'not a check'\n")
    questions, answers, _ = _files(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [RAGPIPE, "grade", "--questions", str(questions), "--answers", str(answers)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr  # one line, not a traceback
    assert done.stderr.strip() == "check plug-in 'shouting' (shouting_check:CHECK): not a ragpipe Check"
