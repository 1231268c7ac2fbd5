"""Verdicts recorded elsewhere decide grades through a judge entry that says so (`recorded: true`): never
asked, applied like any judge's; imported under a name no such entry has, the import says nothing will
apply them until one does."""

from __future__ import annotations

import json

import duckdb
import pytest

from tests.commands import env_for, ragpipe


def _recorded_lines(warehouse, path) -> int:
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        rows = conn.execute(
            "SELECT a.question_id, a.answer FROM answers a JOIN grades g USING (answer_id) "
            "WHERE NOT g.firm AND g.error IS NULL AND g.failure IS DISTINCT FROM 'wrong money figure'"
        ).fetchall()
    path.write_text(
        "".join(
            json.dumps({"question_id": q, "answer": a, "verdict": "declined", "judge": "by-hand", "reason": "r"}) + "\n"
            for q, a in rows
        )
    )
    return len(rows)


@pytest.mark.end_to_end
def test_recorded_verdicts_apply_through_a_recorded_judge_and_are_said_unapplied_without_one(demo_warehouse, tmp_path):
    lines = tmp_path / "verdicts.jsonl"
    n = _recorded_lines(demo_warehouse, lines)
    assert n > 0
    judges = tmp_path / "judges.yaml"
    judges.write_text(json.dumps({"judges": {"other": {"base_url": "http://127.0.0.1:9/v1", "model": "m"}}}))
    env = {**env_for(tmp_path, RAGPIPE_JUDGES=str(judges)), "RAGPIPE_WAREHOUSE": str(demo_warehouse)}
    imported = ragpipe(env, "judge", "import", str(lines))
    assert imported.returncode == 0, imported.stderr
    said = " ".join(imported.stdout.split())
    assert f"imported {n} judgment(s)" in said
    assert f"{n} judgment(s) of 'by-hand': no judge named 'by-hand' with `recorded: true`" in said

    judges.write_text(json.dumps({"judges": {"by-hand": {"recorded": True}}}))
    again = ragpipe(env, "judge", "import", str(lines))
    assert again.returncode == 0 and "recorded: true" not in again.stdout  # now something applies them
    regraded = ragpipe(env, "regrade", "--judge", "by-hand")
    assert regraded.returncode == 0, regraded.stdout + regraded.stderr
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        decided, versions = conn.execute(
            "SELECT count(*) FILTER (WHERE rule = 'judge.declined'), list(DISTINCT grader_version) FROM grades"
        ).fetchone()
    assert decided > 0 and all("+r-" in v for v in versions), (
        regraded.stdout,
        regraded.stderr,
        _judged(demo_warehouse),
    )


def test_a_judge_entry_asks_for_an_endpoint_unless_it_is_recorded(tmp_path):
    from ragpipe.judge import JudgeError, load_judges

    path = tmp_path / "judges.yaml"
    path.write_text(json.dumps({"judges": {"j": {"model": "m"}}}))
    with pytest.raises(JudgeError, match="base_url and model are needed"):
        load_judges(path)
    path.write_text(json.dumps({"judges": {"j": {"recorded": True}}}))
    assert load_judges(path)["j"].recorded


def _judged(warehouse):
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        return (
            conn.execute("SELECT judge_id, verdict, count(*) FROM judgments GROUP BY ALL").fetchall(),
            conn.execute("SELECT judge_verdict, rule, count(*) FROM grades WHERE NOT firm GROUP BY ALL").fetchall(),
        )
