"""The model judge: its replies, how a judgment decides a grade, asking a real chat server on 127.0.0.1
(scripted: valid, malformed, 429, 500, a hang, a key echoed), the cache, the batch path, the version,
and the agreement report with verdicts recorded elsewhere."""

from __future__ import annotations

import json

import duckdb
import pandas as pd
import pytest

from ragpipe.corpus.questions import Question, questions_frame
from ragpipe.grading.grade_table import grade_answers
from ragpipe.judge.apply import apply_judgments, eligible
from ragpipe.judge.ask import ask_missing
from ragpipe.judge.config import JudgeConfig, identity_of, judged_rules, recorded_identity
from ragpipe.judge.judging import pending
from ragpipe.judge.judgment import JudgmentRecord, input_key
from ragpipe.judge.reply import parse_reply
from ragpipe.judge.store import judgments_frame
from tests.chat_server import ChatServer
from tests.commands import env_for, ragpipe

KEY = "sk-judge-secret-4242"


def test_a_reply_is_one_json_object_of_the_schema_or_unparsed():
    assert parse_reply('{"verdict": "correct", "reason": "same figure"}').verdict == "correct"
    fenced = 'Here you go:\n```json\n{"verdict": "Refusal", "reason": "it declines"}\n```'
    assert parse_reply(fenced).verdict == "declined"  # the labels' word is accepted, in any case
    for bad in ("correct", '{"verdict": "partial"}', "{not json}", '["correct"]', ""):
        assert parse_reply(bad) is None, bad


def _one(kind: str, answer: str, firm: bool = False):
    q = Question(id="q", text="Who won the 2019 race?", kind=kind, gold_answer="Dana Ortiz")
    questions = questions_frame("c", [q])
    answers = pd.DataFrame(
        {
            "answer_id": ["a"],
            "question_id": ["q"],
            "answer": [answer],
            "answer_set": ["s"],
            "corpus": ["c"],
            "config": ["d"],
            "citations": [[]],
            "error": [None],
        }
    )
    grades = pd.DataFrame(
        {
            "answer_id": ["a"],
            "question_id": ["q"],
            "answer_set": ["s"],
            "kind": [kind],
            "verdict": ["wrong"],
            "declined": [False],
            "failure": ["missing needles"],
            "rule": ["needles.mined.none"],
            "ungradable": [False],
            "firm": [firm],
            "error": [None],
        }
    )
    return q, grades, answers, questions


def _said(q: Question, answer: str, verdict: str) -> pd.DataFrame:
    identity = recorded_identity("people")
    record = JudgmentRecord(
        identity.id, input_key(q, answer), "people", identity.model_dump_json(), q.id, verdict, "why", None,
        None, None, None, "recorded",
    )  # fmt: skip
    return judgments_frame([record])


@pytest.mark.parametrize(
    "kind, verdict, expected",
    [
        ("answerable", "correct", ("correct", False, "judge.correct")),
        ("answerable", "incorrect", ("wrong", False, "judge.incorrect")),
        ("answerable", "declined", ("wrong", True, "judge.declined")),
        ("negative", "declined", ("correct", True, "judge.declined")),
        ("negative", "incorrect", ("wrong", False, "judge.incorrect")),
        ("ambiguous", "declined", ("correct", True, "judge.declined")),
    ],
)
def test_a_judgment_decides_as_the_rules_findings_do(kind, verdict, expected):
    answer = "It was won by Ms. Ortiz, the Chilean rider."
    q, grades, answers, questions = _one(kind, answer)
    out = apply_judgments(grades, answers, questions, _said(q, answer, verdict)).iloc[0]
    assert (out["verdict"], bool(out["declined"]), out["rule"]) == expected
    assert (out["rules_verdict"], out["rules_rule"], out["judge_reason"]) == ("wrong", "needles.mined.none", "why")
    assert not out["firm"]  # a reading, not a quote


def test_an_unparsed_reply_or_a_firm_verdict_leaves_the_rules_verdict():
    answer = "Ms. Ortiz."
    q, grades, answers, questions = _one("answerable", answer)
    out = apply_judgments(grades, answers, questions, _said(q, answer, "unparsed")).iloc[0]
    assert (out["verdict"], out["rule"], out["judge_verdict"]) == ("wrong", "needles.mined.none", "unparsed")
    q, grades, answers, questions = _one("answerable", answer, firm=True)
    said = _said(q, answer, "correct")
    assert apply_judgments(grades, answers, questions, said).iloc[0]["verdict"] == "wrong"  # never asked
    assert apply_judgments(grades, answers, questions, said, "all").iloc[0]["verdict"] == "correct"
    assert list(eligible(grades, "tentative")) == [False] and list(eligible(grades, "all")) == [True]


def _judge(server: ChatServer, **kw) -> JudgeConfig:
    settings = {"base_url": server.base_url, "model": "judge-model", "api_key_env": "RAGPIPE_TEST_KEY"}
    return JudgeConfig(name="scripted", **{"attempts": 3, "timeout": 5, **settings, **kw})


def _pending(n: int) -> list[tuple[Question, str, str]]:
    q = Question(id="q", text="Who won the 2019 race?", kind="answerable", gold_answer="Dana Ortiz")
    answers = [f"Dana won it, by {i} seconds." for i in range(n)]
    return [(q, a, input_key(q, a)) for a in answers]


def test_asking_a_chat_server_valid_malformed_429_500_and_a_hang(monkeypatch):
    monkeypatch.setenv("RAGPIPE_TEST_KEY", KEY)
    with ChatServer(default="judge") as server:
        config = _judge(server, concurrency=1)
        server.script = ["judge:this is not json", "429:0.01", "judge", "judge"]
        asked = ask_missing(config, identity_of(config), _pending(3))
        assert sorted(j.verdict for j in asked.judgments) == ["correct", "correct", "unparsed"]
        assert asked.calls == 3 and len(server.requests) == 4 and asked.unjudged == 0  # the 429 retried
        assert server.requests[0]["auth"] == f"Bearer {KEY}"
        body = server.requests[0]["body"]
        assert (body["model"], body["temperature"], body["seed"]) == ("judge-model", 0.0, 0)
        assert asked.prompt_tokens == 300 and asked.completion_tokens == 60  # as the server reported them
    with ChatServer(default="500") as server:
        asked = ask_missing(_judge(server), identity_of(_judge(server)), _pending(2))
        assert asked.judgments == [] and asked.unjudged == 2 and "HTTP 500" in asked.first_error
        assert "2 answer(s) unjudged" in asked.summary() and "rule-based verdicts stand" in asked.summary()
    with ChatServer(default="slow:3") as server:
        asked = ask_missing(_judge(server, timeout=0.3, attempts=1), identity_of(_judge(server)), _pending(1))
        assert asked.unjudged == 1 and "timeout" in asked.first_error


def test_a_server_refusing_the_schema_says_to_set_response_format_none(monkeypatch):
    """Many local servers answer 400 to OpenAI's `response_format`; the line that says so names the fix,
    and the fix judges."""
    monkeypatch.setenv("RAGPIPE_TEST_KEY", KEY)
    with ChatServer(default="no-schema") as server:
        asked = ask_missing(_judge(server), identity_of(_judge(server)), _pending(2))
        assert asked.judgments == [] and asked.unjudged == 2 and "HTTP 400" in asked.first_error
        assert "set `response_format: none` in judge scripted's entry" in asked.summary()
        plain = _judge(server, response_format="none")
        asked = ask_missing(plain, identity_of(plain), _pending(2))
        assert [j.verdict for j in asked.judgments] == ["correct", "correct"] and asked.unjudged == 0
    with ChatServer(default="400") as server:  # without the schema a 400 is the server's own word
        plain = _judge(server, response_format="none")
        said = ask_missing(plain, identity_of(plain), _pending(1)).first_error
        assert "HTTP 400" in said and "response_format" not in said


def test_a_reply_echoing_the_key_is_stored_redacted_and_caps_stop_asking(monkeypatch):
    monkeypatch.setenv("RAGPIPE_TEST_KEY", KEY)
    with ChatServer(default="judge-echo") as server:
        config = _judge(server)
        asked = ask_missing(config, identity_of(config), _pending(1))
        stored = judgments_frame(asked.judgments)
        assert KEY not in stored.to_json() and "[REDACTED]" in stored["reason"].iloc[0]
    with ChatServer(default="judge") as server:
        capped = _judge(server, max_calls=2, concurrency=1)
        asked = ask_missing(capped, identity_of(capped), _pending(5))
        assert asked.calls == 2 and len(server.requests) == 2 and asked.unjudged == 3
        assert "cap of 2 call(s)" in asked.summary()
        priced = _judge(server, max_cost=0.00001, prompt_price=1.0, concurrency=1)  # 100 tokens cost 0.0001
        asked = ask_missing(priced, identity_of(priced), _pending(5))
        assert asked.calls == 1 and "cap of 1e-05 in cost" in asked.summary()


def test_the_judge_is_part_of_the_grader_version(rules):
    config = JudgeConfig(name="a", base_url="http://127.0.0.1:1/v1", model="m")
    judged = judged_rules(rules, identity_of(config))
    assert judged.version.startswith(rules.version + "+j-") and rules.version != judged.version
    other = judged_rules(rules, identity_of(config.model_copy(update={"model": "n"})))
    assert other.version != judged.version  # another model is another ruler
    moved = judged_rules(rules, identity_of(config.model_copy(update={"base_url": "http://elsewhere/v1"})))
    assert moved.version == judged.version  # the same model served elsewhere is the same judge
    assert judged_rules(rules, recorded_identity("gpt-4 by hand")).version.startswith(rules.version + "+r-")


def _judges_file(tmp_path, server: ChatServer, **kw) -> str:
    path = tmp_path / "judges.yaml"
    entry = {"base_url": server.base_url, "model": "judge-model", "api_key_env": "RAGPIPE_TEST_KEY", **kw}
    path.write_text(json.dumps({"judges": {"scripted": entry}}))
    return str(path)


def judged_env(tmp_path, server: ChatServer, warehouse) -> dict:
    """The environment of a `ragpipe` on `warehouse` that knows the judge `scripted` (asking `server`)."""
    env = env_for(tmp_path, RAGPIPE_TEST_KEY=KEY, RAGPIPE_JUDGES=_judges_file(tmp_path, server))
    env["RAGPIPE_WAREHOUSE"] = str(warehouse)
    return env


@pytest.mark.end_to_end
def test_regrade_with_a_judge_asks_once_then_never_and_delta_shows_the_flips(demo_warehouse, tmp_path):
    with ChatServer(default="judge") as server:
        env = judged_env(tmp_path, server, demo_warehouse)
        first = ragpipe(env, "regrade", "--judge", "scripted")
        assert first.returncode == 0, first.stdout + first.stderr
        asked = len(server.requests)
        with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
            tentative = conn.execute("SELECT count(*) FROM grades WHERE NOT firm OR rule LIKE 'judge.%'").fetchone()[0]
            judged = conn.execute("SELECT count(*) FROM grades WHERE judge_verdict IS NOT NULL").fetchone()[0]
            versions = {r[0] for r in conn.execute("SELECT DISTINCT grader_version FROM grades").fetchall()}
            stored = conn.execute("SELECT count(*), count(DISTINCT input_key) FROM judgments").fetchone()
        assert asked > 0 and judged > 0 and stored[0] == stored[1] == asked <= tentative
        assert len(versions) == 1 and "+j-" in versions.pop()
        second = ragpipe(env, "regrade", "--judge", "scripted")
        assert second.returncode == 0 and len(server.requests) == asked  # every judgment stored: zero calls
        delta = ragpipe(env, "delta", "--json")
        assert delta.returncode == 0
        board = json.loads(ragpipe(env, "leaderboard", "--corpus", "demo", "--json").stdout)
        assert sum(r["judged"] for r in board["systems"]) > 0 and sum(r["judge_tokens"] for r in board["systems"]) > 0
        shown = ragpipe(env, "leaderboard", "--corpus", "demo").stdout
        assert "judge decided (overturned; tokens, cost)" in " ".join(shown.split()) and " tokens, cost " in shown
        overturned = sum(r["judge_overturned"] or 0 for r in board["systems"])
        for r in (r for r in board["systems"] if r["judged"]):
            assert f"{r['judged']} ({r['judge_overturned'] or 0} overturned; " in shown, shown
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        rules_only = conn.execute("SELECT count(*) FROM grades WHERE rules_verdict IS NOT NULL").fetchone()[0]
        spend = conn.execute("SELECT sum(judge_decided), sum(judge_tokens) FROM scorecards").fetchone()
        stored_text = conn.execute("SELECT string_agg(raw, ' ') FROM judgments").fetchone()[0]
        moved = conn.execute(
            "SELECT count(*) FROM grades WHERE judge_verdict NOT IN ('unparsed') AND verdict != rules_verdict"
        ).fetchone()[0]
    assert overturned == moved  # the leaderboard's "overturned": decided otherwise than the rules had
    assert rules_only == judged and KEY not in (stored_text or "")
    assert spend[0] == judged and spend[1] == 120 * asked  # the server reports 100 + 20 tokens a call


@pytest.mark.end_to_end
def test_batch_export_then_import_round_trip_asks_nothing(demo_warehouse, tmp_path):
    with ChatServer(default="judge") as server:
        env = judged_env(tmp_path, server, demo_warehouse)
        out = tmp_path / "batch-in.jsonl"
        exported = ragpipe(env, "judge", "export", "--judge", "scripted", "--out", str(out))
        assert exported.returncode == 0, exported.stderr
        requests = [json.loads(line) for line in out.read_text().splitlines()]
        assert requests and all(r["url"] == "/v1/chat/completions" and ":" in r["custom_id"] for r in requests)
        # what OpenAI's batch service returns: one output line per request, a chat completion as its body
        outputs = [
            {"custom_id": r["custom_id"], "response": {"status_code": 200, "body": {"choices": [{"message": {
                "content": json.dumps({"verdict": "incorrect", "reason": "batch"})}, "finish_reason": "stop"}]}}}
            for r in requests
        ]  # fmt: skip
        cut = {"message": {"content": '{"verdict": "incorr'}, "finish_reason": "length"}
        outputs.append({"custom_id": requests[0]["custom_id"], "response": {"status_code": 200, "body": {
            "choices": [cut]}}})  # fmt: skip
        outputs.append({"custom_id": "j-someoneelse:abc", "response": {"status_code": 200, "body": {}}})
        result = tmp_path / "batch-out.jsonl"
        result.write_text("".join(json.dumps(o) + "\n" for o in outputs))
        imported = ragpipe(env, "judge", "import", str(result), "--judge", "scripted")
        assert imported.returncode == 0, imported.stderr
        assert f"batch-out.jsonl:{len(outputs)}: field custom_id" in imported.stderr
        assert f"batch-out.jsonl:{len(outputs) - 1}: field response" in imported.stderr  # cut short: not imported
        assert "finish_reason 'length'" in imported.stderr
        assert f"imported {len(requests)} judgment(s)" in imported.stdout
        regraded = ragpipe(env, "regrade", "--judge", "scripted")
        assert regraded.returncode == 0 and server.requests == []  # every judgment came from the batch
        again = ragpipe(env, "judge", "export", "--judge", "scripted")
        assert again.stdout.strip() == "" and "0 judgment(s) missing" in again.stderr


def test_agreement_with_recorded_verdicts_reports_rules_judge_and_both(tmp_path):
    from tests.commands import invoke

    lines = [
        ("Who won the 2019 race?", "Dana Ortiz", "The winner was Ms. Ortiz.", "correct", "correct"),
        ("Who won the 2020 race?", "Lee Park", "Lee Park won it.", "correct", "correct"),
        ("Who won the 2021 race?", "Ana Silva", "It was Maria Costa.", "incorrect", "incorrect"),
        ("Who won the 2022 race?", "Tom Reyes", "Reyes, in a sprint finish.", "correct", "correct"),
        ("How many moons does Mars have?", "2", "Mars has 2 moons.", "correct", "incorrect"),  # firm: not asked
    ]
    labels, said = tmp_path / "labels.jsonl", tmp_path / "verdicts.jsonl"
    labels.write_text(
        "".join(
            json.dumps({"question_id": f"r{i}", "question": q, "gold_answer": g, "answer": a, "label": lab}) + "\n"
            for i, (q, g, a, lab, _) in enumerate(lines)
        )
    )
    said.write_text(
        "".join(
            json.dumps({"question_id": f"r{i}", "answer": a, "verdict": v, "judge": "by-hand"}) + "\n"
            for i, (_, _, a, _, v) in enumerate(lines)
        )
        + '{"question_id": "r9", "answer": "x", "verdict": "correct", "judge": "by-hand"}\n'
    )
    result = invoke("agreement", "--labels", str(labels), "--judgments", str(said), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{") :])
    judge = report["judge"]
    assert "+r-" in report["grader_version"] and judge["name"] == "by-hand"
    assert judge["rules"]["accuracy"] < 1.0 and judge["combined"]["accuracy"] == 1.0
    assert 0 < judge["judged"] < 5 and judge["share_judged"] == judge["judged"] / 5
    assert judge["judge_alone"]["accuracy"] == 1.0 and set(judge["by_firmness"]) <= {"firm", "tentative"}
    assert "verdicts.jsonl:6: field question_id: unknown question 'r9'" in result.output


def test_pending_lists_each_missing_key_once(rules):
    q = Question(id="q", text="Who won the 2019 race?", kind="answerable", gold_answer="Dana Ortiz")
    answers = pd.DataFrame(
        {
            "answer_id": ["a1", "a2"],
            "question_id": ["q", "q"],
            "answer": ["It was Ms. Ortiz."] * 2,  # two systems, one text: one judgment
            "answer_set": ["s1", "s2"],
            "corpus": ["c"] * 2,
            "config": ["d"] * 2,
            "citations": [[], []],
            "error": [None, None],
        }
    )
    questions = questions_frame("c", [q])
    from ragpipe.corpus.gold_text import gold_text_needles

    grades = grade_answers(answers, questions, gold_text_needles("c", [q]), rules)
    assert len(pending(grades, answers, questions, judgments_frame([]), "all")) == 1


@pytest.mark.end_to_end
def test_a_judge_that_is_down_leaves_the_rules_verdicts_and_says_so(demo_warehouse, tmp_path):
    from tests.commands import free_port

    path = tmp_path / "judges.yaml"
    entry = {"base_url": f"http://127.0.0.1:{free_port()}/v1", "model": "m", "attempts": 1, "timeout": 2}
    path.write_text(json.dumps({"judges": {"down": entry}}))
    env = env_for(tmp_path, RAGPIPE_JUDGES=str(path))
    env["RAGPIPE_WAREHOUSE"] = str(demo_warehouse)
    done = ragpipe(env, "regrade", "--judge", "down")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        "unjudged" in done.stdout and "connection error" in done.stdout and "rule-based verdicts stand" in done.stdout
    )
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        judged = conn.execute("SELECT count(*) FROM grades WHERE judge_verdict IS NOT NULL").fetchone()[0]
        version = conn.execute("SELECT DISTINCT grader_version FROM grades").fetchall()
        unjudged = conn.execute("SELECT sum(judge_unjudged), sum(judge_decided) FROM scorecards").fetchone()
    assert judged == 0 and len(version) == 1 and "+j-" in version[0][0]
    assert unjudged[0] > 0 and unjudged[1] == 0  # the scorecard says the judge left them
    unknown = ragpipe(env, "regrade", "--judge", "nobody")
    assert unknown.returncode == 2 and "unknown judge 'nobody'; known: down" in unknown.stdout + unknown.stderr


def test_grade_with_a_judge_on_loose_files(tmp_path, monkeypatch):
    from tests.commands import invoke

    questions, answers = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    questions.write_text(
        json.dumps({"id": "r1", "question": "Who won the 2019 race?", "gold_answer": "Dana Ortiz"}) + "\n"
        + json.dumps({"id": "m1", "question": "How many moons does Mars have?", "gold_answer": "2"}) + "\n"
    )  # fmt: skip
    answers.write_text(
        json.dumps({"question_id": "r1", "answer": "Dana took it."}) + "\n"  # tentative: the judge is asked
        + json.dumps({"question_id": "m1", "answer": "Mars has 2 moons."}) + "\n"  # firm: it is not
    )  # fmt: skip
    with ChatServer(default="judge") as server:
        judges = _judges_file(tmp_path, server)
        env = {"RAGPIPE_JUDGES": judges, "RAGPIPE_TEST_KEY": KEY, "RAGPIPE_WAREHOUSE": str(tmp_path / "wh")}
        result = invoke("grade", "--questions", str(questions), "--answers", str(answers), "--judge", "scripted",
                        "--json", env=env)  # fmt: skip
        assert result.exit_code == 0, result.output
        assert len(server.requests) == 1
    rows = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    by_id = {r["question_id"]: r for r in rows}
    assert by_id["r1"]["rule"] == "judge.correct" and by_id["r1"]["rules_verdict"] == "wrong"
    assert by_id["m1"]["judge_verdict"] is None and by_id["m1"]["verdict"] == "correct"
    assert "+j-" in by_id["r1"]["grader_version"]


def test_the_review_report_shows_the_judge_beside_the_rules(demo_warehouse, tmp_path):
    from ragpipe.review.data import load_review

    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb")) as conn:
        aid = conn.execute("SELECT answer_id FROM grades ORDER BY answer_id LIMIT 1").fetchone()[0]
        for column in ("rules_verdict", "rules_rule", "judge_verdict", "judge_reason"):
            conn.execute(f"ALTER TABLE grades ADD COLUMN IF NOT EXISTS {column} VARCHAR")
        conn.execute(
            "UPDATE grades SET rules_verdict = 'wrong', rules_rule = 'needles.mined.none', judge_verdict = 'correct', "
            "judge_reason = 'the same rider, named by surname', rule = 'judge.correct' WHERE answer_id = ?",
            [aid],
        )
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        review = load_review(conn, "demo", "default")
    row = next(r for r in review.rows if r["answer_id"] == aid)
    assert (row["judge_verdict"], row["rules_verdict"]) == ("correct", "wrong")
    from ragpipe.review.render import render_report

    html = render_report(review)
    assert "model judge: <b>correct</b>: the same rider, named by surname" in html and "needles.mined.none" in html


def test_export_into_a_missing_folder_says_so_in_a_line(tmp_path):
    from tests.commands import invoke

    with ChatServer(default="judge") as server:
        result = invoke("judge", "export", "--judge", "scripted", "--out", str(tmp_path / "absent" / "batch.jsonl"),
                        env={"RAGPIPE_JUDGES": _judges_file(tmp_path, server), "RAGPIPE_WAREHOUSE": str(tmp_path / "wh")})  # fmt: skip
    said = " ".join(result.output.split())
    assert result.exit_code == 1 and f"no folder {tmp_path / 'absent'}; create it first" in said, said
    assert result.exception is None or isinstance(result.exception, SystemExit)  # no traceback, a line
