"""A grader change re-materializes only grades and what follows; history is never overwritten."""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from dagster import DagsterInstance

from assets.runs.runner import regrade_pair
from ragpipe.grader_agreement.audit import audit
from ragpipe.grading.rules import DEFAULT_RULES, load_rules
from ragpipe.history.delta import grade_delta
from ragpipe.history.whatif import whatif
from ragpipe.warehouse.sql import SqlRefused, run_query
from tests.commands import env_for
from tests.commands import ragpipe as run_ragpipe
from tests.conftest import warehouse_resources


def _sql(warehouse: Path, query: str) -> pd.DataFrame:
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        return conn.execute(query).df()


def _hash(frame: pd.DataFrame) -> str:
    return hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest()


@pytest.fixture()
def warehouse(demo_warehouse) -> Path:
    """The demo's default pair, materialized once per session; this test's own copy."""
    return demo_warehouse


def _rules_without(tmp_path: Path, phrase: str) -> Path:
    text = DEFAULT_RULES.read_text()
    assert f"    - {phrase}\n" in text
    path = tmp_path / "rules-candidate.yaml"
    path.write_text(text.replace(f"    - {phrase}\n", ""))
    return path


class Tripwire:
    """An engine that fails the test if anything asks it a question."""

    def __init__(self, **settings):
        raise AssertionError("the engine was called during a regrade")


def test_regrade_touches_only_grades_and_never_the_engine(warehouse, tmp_path, monkeypatch):
    import ragpipe.answering.engines

    answers_before = _sql(warehouse, "SELECT * FROM answers ORDER BY answer_id")
    chunks_before = _sql(warehouse, "SELECT * FROM chunks ORDER BY chunk_id")
    monkeypatch.setitem(ragpipe.answering.engines.ENGINES, "extractive", Tripwire)
    candidate = _rules_without(tmp_path, "could not find")
    resources = warehouse_resources(warehouse, rules_path=candidate)
    result = regrade_pair("demo", "default", instance=DagsterInstance.ephemeral(), resources=resources)
    assert result.success
    materialized = {e.asset_key.to_user_string() for e in result.get_asset_materialization_events()}
    # judgments: with no model judge configured it asks nothing and stores nothing
    assert materialized == {
        "rule_verdicts",
        "judgments",
        "grades",
        "scorecards",
        "agreement",
        "grade_delta",
        "review_report",
    }
    assert _hash(_sql(warehouse, "SELECT * FROM answers ORDER BY answer_id")) == _hash(answers_before)
    assert _hash(_sql(warehouse, "SELECT * FROM chunks ORDER BY chunk_id")) == _hash(chunks_before)
    new_version = load_rules(candidate).version
    assert set(_sql(warehouse, "SELECT grader_version FROM grades")["grader_version"]) == {new_version}
    # the engine's declines no longer read as declines: negatives flip correct -> wrong, and the delta says so
    delta = _sql(warehouse, "SELECT * FROM grade_deltas")
    assert len(delta) >= 4 and set(delta["to_version"]) == {new_version}
    assert set(delta.loc[delta["question_id"].str.startswith("neg-"), "new_verdict"]) == {"wrong"}
    # history keeps both versions, scorecards too
    assert _sql(warehouse, "SELECT count(DISTINCT grader_version) AS n FROM grade_history")["n"].iloc[0] == 2
    assert _sql(warehouse, "SELECT count(DISTINCT grader_version) AS n FROM scorecard_history")["n"].iloc[0] == 2


def test_regrading_with_an_unchanged_grader_is_idempotent(warehouse):
    counts = lambda: (  # noqa: E731
        _sql(warehouse, "SELECT count(*) AS n FROM grade_history")["n"].iloc[0],
        _sql(warehouse, "SELECT count(*) AS n FROM scorecard_history")["n"].iloc[0],
    )
    before = counts()
    assert regrade_pair(
        "demo", "default", instance=DagsterInstance.ephemeral(), resources=warehouse_resources(warehouse)
    ).success
    assert counts() == before
    dupes = _sql(
        warehouse,
        "SELECT answer_id, grader_version, answer_sha, count(*) AS n FROM grade_history GROUP BY ALL HAVING n > 1",
    )
    assert dupes.empty


def test_delta_directions_and_monotonicity():
    key = {"corpus": "c", "config": "k", "answer_set": "s"}
    old = pd.DataFrame(
        [
            {
                **key,
                "question_id": "a",
                "answer_id": "1",
                "verdict": "correct",
                "declined": False,
                "failure": None,
                "rule": "r1",
            },
            {
                **key,
                "question_id": "b",
                "answer_id": "2",
                "verdict": "wrong",
                "declined": False,
                "failure": "did not decline",
                "rule": "r2",
            },
            {
                **key,
                "question_id": "c",
                "answer_id": "3",
                "verdict": "wrong",
                "declined": False,
                "failure": "missing needles",
                "rule": "r3",
            },
        ]
    )
    new = old.copy()
    new.loc[1, ["verdict", "declined", "failure", "rule"]] = ["correct", True, None, "negative.declined"]
    delta = grade_delta(old, new)
    assert (delta["changed"], delta["monotone"], delta["summary"]) == (1, True, {"c": {"wrong -> correct": 1}})
    assert delta["flips"][0]["old_rule"] == "r2" and delta["flips"][0]["new_rule"] == "negative.declined"
    worse = old.copy()
    worse.loc[0, ["verdict", "failure"]] = ["partial", "missing needles"]
    assert grade_delta(old, worse)["monotone"] is False


def test_whatif_records_nothing(warehouse, tmp_path):
    db = warehouse / "ragpipe.duckdb"
    tables = _sql(warehouse, "SELECT table_name, estimated_size FROM duckdb_tables() ORDER BY ALL")
    grades = _hash(_sql(warehouse, "SELECT * FROM grades ORDER BY answer_id"))
    with duckdb.connect(str(db), read_only=True) as conn:
        result = whatif(conn, load_rules(_rules_without(tmp_path, "could not find")))
    assert result["changed"] >= 4 and result["monotone"] is False
    assert _hash(_sql(warehouse, "SELECT * FROM grades ORDER BY answer_id")) == grades
    assert _sql(warehouse, "SELECT table_name, estimated_size FROM duckdb_tables() ORDER BY ALL").equals(tables)


def test_audit_reports_why_not_covered_is_a_bad_decline(warehouse):
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        report = audit(conn, load_rules(), ["not covered"])
    places = {(c["where"], c["question_id"]) for c in report["collisions"]}
    assert ("must_contain_any", "insurance-flood") in places
    assert ("gold_answer", "insurance-flood") in places
    assert ("answer graded correct", "insurance-flood") in places
    assert report["overrides_exclusions"][0]["phrase"] == "not covered"
    assert report["delta"]["monotone"] is False
    assert {f["question_id"] for f in report["delta"]["flips"]} == {"insurance-flood"}


def test_audit_counts_no_negative_question_or_right_decline_as_a_collision(warehouse):
    """A negative question's gold answer ("No savings account statement is among the documents") is a
    decline: a phrase reading it as one is right there, and so on a decline graded correct."""
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        report = audit(conn, load_rules(), ["is among the documents"])
        negatives = set(conn.execute("SELECT question_id FROM questions WHERE kind = 'negative'").df()["question_id"])
    assert {"neg-emergency-fund", "neg-property-tax"} <= negatives
    assert not {c["question_id"] for c in report["collisions"]} & negatives, report["collisions"]


def test_sql_is_read_only_and_stays_inside_the_warehouse(warehouse):
    db = warehouse / "ragpipe.duckdb"
    n = len(run_query(db, "SELECT * FROM grades"))
    for statement in [
        "DELETE FROM grades",
        "DROP TABLE grades",
        "CREATE TABLE x AS SELECT 1",
        "INSERT INTO grades SELECT * FROM grades",
    ]:
        with pytest.raises(SqlRefused, match="read-only"):
            run_query(db, statement)
    with pytest.raises(SqlRefused, match="outside the warehouse"):
        run_query(db, "SELECT * FROM read_csv('/etc/hostname')")
    with pytest.raises(SqlRefused):
        run_query(db, f"ATTACH '{warehouse / 'other.duckdb'}' AS other")
    assert len(run_query(db, "SELECT * FROM grades")) == n
    assert not (warehouse / "other.duckdb").exists()


@pytest.mark.end_to_end
def test_the_commands_a_user_runs(tmp_path, demo_warehouse_once):
    """The demo pair regraded with candidate rules -> regrade with the shipped ones -> delta -> whatif ->
    sql, as subprocesses (from a copy of the session's pair, graded with the shipped rules)."""
    import json
    import shutil

    env = env_for(tmp_path)
    shutil.copytree(demo_warehouse_once, tmp_path / "wh")
    (tmp_path / "dh").mkdir()
    candidate = _rules_without(tmp_path, "could not find")

    def ragpipe(*args, rules=None, check=True):
        return run_ragpipe({**env, **({"RAGPIPE_RULES": str(rules)} if rules else {})}, *args, check=check)

    flipped = ragpipe("regrade", "--rules", str(candidate)).stdout  # as RAGPIPE_RULES does, below
    # each pair's flips said on the terminal, by direction, and where to read them
    assert "demo/default: " in flipped and " verdict(s) flipped (" in flipped and "correct -> wrong: " in flipped
    assert "not monotone" in flipped and "`ragpipe delta --corpus demo --config default` lists them" in flipped
    back_again = ragpipe("regrade").stdout
    assert "regraded 1 pair(s)" in back_again and "wrong -> correct: " in back_again
    assert "not monotone" not in back_again
    # what changed between the two graders, by version recorded in the warehouse and by file
    diff = ragpipe("rules", "diff", load_rules(candidate).version).stdout
    assert "+    - could not find\n" in diff and diff.count("\n+    - ") == 1, diff
    assert "the grading code differs" not in diff
    same = ragpipe("rules", "diff", str(candidate), load_rules(candidate).version).stdout
    assert "the rules text is the same" in same
    unknown = ragpipe("rules", "diff", "g-000000000000", check=False)
    assert unknown.returncode == 1 and "neither a rules file nor a grader version" in unknown.stdout
    shown = " ".join(ragpipe("delta").stdout.split())
    assert "monotone: true (no correct verdict got worse)" in shown
    assert "(#: its grading events, in table grading_events)" in shown
    delta = json.loads(ragpipe("delta", "--json").stdout)
    assert delta["from_version"] == load_rules(candidate).version and delta["to_version"] == load_rules().version
    assert delta["changed"] >= 4 and delta["monotone"] is True  # declines recognised again: wrong -> correct
    assert all(
        f["old_verdict"] == "wrong" and f["new_verdict"] == "correct"
        for f in delta["flips"]
        if f["question_id"].startswith("neg-")
    )
    assert (
        delta["scorecards"]
        and delta["scorecards"][0]["overall_pct_after"] > delta["scorecards"][0]["overall_pct_before"]
    )
    whatif_back = json.loads(ragpipe("whatif", "--rules", str(candidate), "--json").stdout)
    assert whatif_back["changed"] == delta["changed"] and whatif_back["monotone"] is False
    # back to the candidate: the delta follows time, so it is the exact inverse of the one above
    ragpipe("regrade", rules=candidate)
    back = json.loads(ragpipe("delta", "--json").stdout)
    assert (back["from_version"], back["to_version"]) == (delta["to_version"], delta["from_version"])
    flip = lambda f: (f["answer_id"], f["old_verdict"], f["new_verdict"])  # noqa: E731
    assert {flip(f) for f in back["flips"]} == {(a, new, old) for a, old, new in map(flip, delta["flips"])}
    ragpipe("regrade")
    assert "demo/default: no verdict flipped" in ragpipe("regrade").stdout  # the same grader again
    refused = ragpipe("sql", "DELETE FROM grades", check=False)
    assert refused.returncode == 2 and "read-only" in refused.stdout
    rows = json.loads(ragpipe("sql", "SELECT count(DISTINCT grader_version) AS n FROM grade_history", "--json").stdout)
    assert rows == [{"n": 2}]


def test_sql_cannot_change_the_connections_settings(demo_warehouse_once, tmp_path):
    """`CALL enable_logging(storage='file', ...)` once aborted DuckDB (exit 134); `SET` could undo the sandbox.
    In its own process: an abort would end the test's worker."""
    env = {**env_for(tmp_path), "RAGPIPE_WAREHOUSE": str(demo_warehouse_once)}
    log = tmp_path / "x"
    for statement in [
        f"CALL enable_logging(storage='file', storage_path='{log}'); SELECT 1",
        "SET enable_external_access = true; SELECT * FROM read_csv('/etc/hostname')",
    ]:
        done = run_ragpipe(env, "sql", statement)
        assert done.returncode == 1 and "configuration has been locked" in done.stdout + done.stderr, done
    assert not log.exists()
    assert run_ragpipe(env, "sql", "SELECT 42 AS answer").returncode == 0


def test_a_regrade_with_a_judge_grades_each_answer_once(warehouse, tmp_path, monkeypatch):
    """Grade once: the rules grade a pair's answers in one stage; the judge reads the stored rule verdicts
    and grades read both, neither grading again (they once graded every answer a second time)."""
    import json

    import ragpipe.grading.grade_table as grade_table
    from assets.runs.runner import regrade_in_one_run
    from tests.commands import free_port

    judges = tmp_path / "judges.yaml"  # a judge nobody serves: asked, it leaves its answers unjudged
    entry = {"base_url": f"http://127.0.0.1:{free_port()}/v1", "model": "m", "attempts": 1, "timeout": 2}
    judges.write_text(json.dumps({"judges": {"down": entry}}))
    monkeypatch.setenv("RAGPIPE_JUDGES", str(judges))
    graded = []
    real = grade_table.grade_answers

    def counted(answers, *args, **kwargs):
        graded.append(len(answers))
        return real(answers, *args, **kwargs)

    monkeypatch.setattr(grade_table, "grade_answers", counted)
    monkeypatch.setattr("assets.grading.rule_verdicts.grade_answers", counted)
    resources = warehouse_resources(warehouse, judge="down")
    result = regrade_in_one_run([("demo", "default")], instance=DagsterInstance.ephemeral(), resources=resources)
    assert result.success
    answers = _sql(warehouse, "SELECT count(*) AS n FROM answers")["n"].iloc[0]
    assert graded == [answers]  # one grading of the pair's answers, by the rules
    judged = {e.asset_key.to_user_string(): e for e in result.get_asset_materialization_events()}
    assert judged["judgments"].materialization.metadata["pending"].value > 0  # the judge was asked about some
    (version,) = set(_sql(warehouse, "SELECT DISTINCT grader_version FROM grades")["grader_version"])
    assert version.startswith(f"{load_rules().version}+j-")  # graded with the judge, by the rules' one grading
