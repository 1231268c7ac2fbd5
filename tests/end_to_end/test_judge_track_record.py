"""A judge's track record as a user meets it: `agreement --judge --record` measures where a configured
judge (a real chat server on 127.0.0.1) reads better than the rules, writes it beside the judges' file, and
`grade --judge` then leaves the cells it lost to the rules: neither asked about nor overturned."""

from __future__ import annotations

import json

import pytest

from tests.chat_server import ChatServer
from tests.commands import env_for, invoke, ragpipe
from tests.conftest import SHARED
from tests.end_to_end.test_judge import KEY, _judges_file
from tests.end_to_end.test_judge_keep import LINES, _files, _json

LENIENT = 'judge:{"verdict": "correct", "reason": "answered"}'


@pytest.mark.end_to_end
def test_a_recorded_loss_leaves_the_cell_to_the_rules_in_grading(tmp_path):
    labels, _ = _files(tmp_path)  # the rules read two declines people saw; the judge calls all four answered
    questions, answers = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    questions.write_text("".join(json.dumps({"id": f"x{i}", "question": q, "gold_answer": "", "kind": "ambiguous"})
                                 + "\n" for i, (q, _, _) in enumerate(LINES)))  # fmt: skip
    answers.write_text(
        "".join(json.dumps({"question_id": f"x{i}", "answer": a}) + "\n" for i, (_, a, _) in enumerate(LINES))
    )
    with ChatServer(default=LENIENT) as server:
        env = env_for(tmp_path, RAGPIPE_TEST_KEY=KEY, RAGPIPE_JUDGES=_judges_file(tmp_path, server))
        grade = ("grade", "--questions", str(questions), "--answers", str(answers), "--judge", "scripted", "--jsonl")
        before = _rows(ragpipe(env, *grade))
        measured = ragpipe(env, "agreement", "--labels", str(labels), "--judge", "scripted", "--record", "--json")
        assert measured.returncode == 0, measured.stdout + measured.stderr
        asked = len(server.requests)
        after = _rows(ragpipe(env, *grade))
        assert len(server.requests) == asked  # the cells it still decides were asked before: stored
    record = json.loads(measured.stdout[measured.stdout.index("{") :])["judge"]["track_record"]
    assert record["held"] == ["ambiguous:ambiguous.declined"]
    files = list((tmp_path / "judge-records").glob("j-*.json"))
    assert len(files) == 1 and "held: ambiguous:ambiguous.declined" in " ".join(measured.stderr.split())
    declines = [
        i for i, r in enumerate(before) if r["rule"] == "judge.correct" and r["rules_rule"] == "ambiguous.declined"
    ]
    assert len(declines) == 2  # the judge overturned both declines before its record was written
    for i, row in enumerate(after):
        if i in declines:  # now the rules' again, not even asked about
            assert row["rule"] == "ambiguous.declined" and row["declined"] and row["judge_verdict"] is None
        else:
            assert row == before[i] | {"grader_version": row["grader_version"]}
    assert after[0]["grader_version"] != before[0]["grader_version"] and "+k-" in after[0]["grader_version"]


def test_record_is_for_a_configured_judge(tmp_path):
    labels, said = _files(tmp_path)
    refused = invoke("agreement", "--labels", str(labels), "--judgments", str(said), "--record")
    assert refused.exit_code == 2 and "give --judge NAME" in " ".join(refused.output.replace("\u2502", " ").split())


@pytest.mark.skipif(not (SHARED / "open-domain" / "xstest-dev.jsonl").exists(), reason="../shared/data is absent")
def test_on_xstest_gpt4_held_by_its_track_record_out_of_fold_beats_gpt4_as_asked_at_every_budget():
    data = SHARED / "open-domain"
    args = ["agreement", "--labels", str(data / "xstest-dev.jsonl"), "--judgments",
            str(data / "xstest-dev-gpt4-judgments.jsonl"), "--json"]  # fmt: skip
    for budget in ("0.05", "0.2", "1"):
        judge = json.loads(_json(invoke(*args, "--judge-budget", budget)))["judge"]
        record = judge["track_record"]
        assert record["folds"] == 5 and "ambiguous:ambiguous.declined" in record["held"]
        held, asked = record["out_of_fold"], record["as_asked"]
        assert asked == judge["combined"]
        assert held["refusal_f1"] > asked["refusal_f1"] and held["kappa"] > asked["kappa"]
        assert held["kappa"] > judge["rules"]["kappa"]  # and above the rules alone: where it wins, it decides


def _rows(done) -> list[dict]:
    assert done.returncode == 0, done.stdout + done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
