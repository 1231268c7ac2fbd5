"""A judge named in corpora/configs.yaml stays: every command grades the pair with it, and a pair graded with
a judge is never regraded by the rules alone without a word; a corpus whose pairs have different graders
says so under its scorecards."""

from __future__ import annotations

import json
import shutil

import duckdb
import pytest
import yaml

from tests.chat_server import ChatServer
from tests.commands import env_for, ragpipe
from tests.conftest import ROOT

KEY = "sk-judge-secret-4242"


def _corpora_naming(tmp_path, server: ChatServer, judged: dict[str, str], keep: list | None = None):
    """A copy of corpora/ whose configs.yaml knows the judge `scripted` (asking `server`) and names it under
    each configuration of `judged` (configuration -> judge)."""
    corpora = tmp_path / "corpora"
    if not corpora.exists():
        shutil.copytree(ROOT / "corpora", corpora)
    path = corpora / "configs.yaml"
    configs = yaml.safe_load(path.read_text())
    configs["judges"] = {
        "scripted": {"base_url": server.base_url, "model": "judge-model", "api_key_env": "RAGPIPE_TEST_KEY"}
    }
    if keep:
        configs["judges"]["scripted"]["keep"] = keep
    for name, knobs in configs["configs"].items():
        knobs.pop("judge", None)
        if name in judged:
            knobs["judge"] = judged[name]
    path.write_text(yaml.safe_dump(configs))
    return corpora


def _graders(warehouse) -> dict[str, list]:
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        rows = conn.execute(
            "SELECT config, list(DISTINCT grader_version), count(judge_verdict) FROM grades GROUP BY config"
        ).fetchall()
    return {config: [versions, judged] for config, versions, judged in rows}


@pytest.mark.end_to_end
def test_a_judge_named_in_the_configuration_stays_and_leaving_it_is_said(demo_warehouse, tmp_path):
    with ChatServer(default="judge") as server:
        corpora = _corpora_naming(tmp_path, server, {"default": "scripted"})
        env = env_for(tmp_path, RAGPIPE_TEST_KEY=KEY, RAGPIPE_CORPORA=str(corpora))
        env["RAGPIPE_WAREHOUSE"] = str(demo_warehouse)
        first = ragpipe(env, "regrade")  # no --judge: the configuration names it
        assert first.returncode == 0, first.stdout + first.stderr
        (versions, judged) = _graders(demo_warehouse)["default"]
        assert len(versions) == 1 and "+j-" in versions[0] and judged > 0 and server.requests
        assert "demo/default: judge: " in first.stdout and "+j-" in first.stdout.splitlines()[0]  # said, per pair

        # another pair of the corpus, graded by the rules alone: the scorecards say the corpus mixes graders
        second = ragpipe(env, "run", "--corpus", "demo", "--config", "small-chunks")
        assert second.returncode == 0, second.stdout + second.stderr
        assert "+j-" not in _graders(demo_warehouse)["small-chunks"][0][0]
        shown = ragpipe(env, "scorecard", "--corpus", "demo").stdout
        assert "demo: its configurations are graded by different graders" in " ".join(shown.split())

        # the judge taken out of the configuration: the next run says the pair lost it
        _corpora_naming(tmp_path, server, {})
        third = ragpipe(env, "run", "--corpus", "demo", "--config", "default")  # as the issue ran it
        assert third.returncode == 0, third.stdout + third.stderr
    said = " ".join(third.stdout.split())
    assert "demo/default: graded before with a judge" in said and "now by the rules alone" in said
    assert "judge: NAME" in said
    assert "+j-" not in _graders(demo_warehouse)["default"][0][0]


def test_a_configuration_naming_an_unknown_judge_is_refused_naming_it(demo_warehouse, tmp_path):
    with ChatServer(default="judge") as server:
        corpora = _corpora_naming(tmp_path, server, {"default": "nobody"})
    env = env_for(tmp_path, RAGPIPE_CORPORA=str(corpora))
    env["RAGPIPE_WAREHOUSE"] = str(demo_warehouse)
    done = ragpipe(env, "regrade")
    said = " ".join((done.stdout + done.stderr).split())
    assert done.returncode != 0
    assert "configuration 'default' of corpus 'demo'" in said and "unknown judge 'nobody'" in said
    assert json.dumps("scripted")[1:-1] in said  # the known ones are named


@pytest.mark.end_to_end
def test_what_the_judge_keeps_is_never_asked_and_names_the_grader(demo_warehouse, tmp_path):
    """`keep:` in the judge's entry: the verdicts it holds are left to the rules (here every kind: nothing is
    asked), and the grader version says what is kept (`+k-...`)."""
    with ChatServer(default="judge") as server:
        every_kind = [{"kind": "answerable"}, {"kind": "negative"}, {"kind": "ambiguous"}]
        corpora = _corpora_naming(tmp_path, server, {"default": "scripted"}, keep=every_kind)
        env = env_for(tmp_path, RAGPIPE_TEST_KEY=KEY, RAGPIPE_CORPORA=str(corpora))
        env["RAGPIPE_WAREHOUSE"] = str(demo_warehouse)
        done = ragpipe(env, "regrade")
        assert done.returncode == 0, done.stdout + done.stderr
        assert not server.requests
    (versions, judged) = _graders(demo_warehouse)["default"]
    assert judged == 0 and len(versions) == 1 and "+j-" in versions[0] and "+k-" in versions[0]


@pytest.mark.end_to_end
def test_whatif_grades_a_judged_pair_with_its_judge(demo_warehouse, tmp_path):
    """`whatif --rules` with the rules unchanged on a pair its configuration grades with a judge: the judge's
    stored judgments apply as a regrade applies them, so nothing flips (it once listed every answer the judge
    decided), the target grader is named for the judge, and nobody is asked."""
    from ragpipe.grading.rules import DEFAULT_RULES

    lenient = 'judge:{"verdict": "correct", "reason": "lenient"}'  # overturns every tentative wrong it is asked
    with ChatServer(default=lenient) as server:
        corpora = _corpora_naming(tmp_path, server, {"default": "scripted"})
        env = env_for(tmp_path, RAGPIPE_TEST_KEY=KEY, RAGPIPE_CORPORA=str(corpora), RAGPIPE_JUDGE_ON="all")
        env["RAGPIPE_WAREHOUSE"] = str(demo_warehouse)
        graded = ragpipe(env, "regrade")
        assert graded.returncode == 0, graded.stdout + graded.stderr
        (versions, judged) = _graders(demo_warehouse)["default"]
        with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
            overturned, decided = conn.execute(
                "SELECT count(*) FILTER (verdict <> rules_verdict), count(*) FILTER (judge_verdict <> 'unparsed') "
                "FROM grades WHERE judge_key IS NOT NULL"
            ).fetchall()[0]
        assert overturned > 0  # the rules alone would grade these otherwise
        asked = len(server.requests)
        out = ragpipe(env, "whatif", "--rules", str(DEFAULT_RULES), "--json")
        assert len(server.requests) == asked  # stored judgments only
    assert judged > 0 and out.returncode == 0, out.stdout + out.stderr
    wide = ragpipe(env, "scorecard", "--corpus", "demo", "--config", "default", "--wide").stdout
    assert "judge decided/overturned" in wide and f" {decided}/{overturned} " in wide, wide  # the judge in view
    result = json.loads(out.stdout)
    assert result["changed"] == 0 and result["compared"] == 31, result["summary"]
    assert result["to_version"] == versions[0] and "+j-" in result["to_version"]


@pytest.mark.end_to_end
def test_a_configuration_edited_while_a_regrade_judges_does_not_change_its_grader(demo_warehouse, tmp_path):
    """One grader per run: `judge: other` written into configs.yaml while a regrade's judgment step asks
    `scripted` once left the summary naming one judge and the grades another, most of them decided by the
    other judge's earlier verdicts. The run's steps grade with the grader it began with."""
    import time

    from tests.commands import start

    with ChatServer(default="judge") as other_server, ChatServer(default="slow:0.2:judge") as server:
        corpora = _corpora_naming(tmp_path, other_server, {"default": "scripted"})
        path = corpora / "configs.yaml"
        configs = yaml.safe_load(path.read_text())
        configs["judges"]["other"] = {**configs["judges"]["scripted"], "model": "other-model"}
        configs["judges"]["scripted"]["base_url"] = server.base_url
        configs["configs"]["default"]["judge"] = "other"
        path.write_text(yaml.safe_dump(configs))
        env = env_for(tmp_path, RAGPIPE_TEST_KEY=KEY, RAGPIPE_CORPORA=str(corpora))
        env["RAGPIPE_WAREHOUSE"] = str(demo_warehouse)
        first = ragpipe(env, "regrade")  # the other judge's verdicts stored, to be reused were it read again
        assert first.returncode == 0 and other_server.requests, first.stdout + first.stderr
        (with_other,) = _graders(demo_warehouse)["default"][0]
        configs["configs"]["default"]["judge"] = "scripted"
        path.write_text(yaml.safe_dump(configs))
        process = start(env, "regrade")
        deadline = time.monotonic() + 600  # only catches a hang: the event is the first question reaching it
        while not server.requests and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        assert server.requests, "the regrade never asked the judge its configuration names"
        configs["configs"]["default"]["judge"] = "other"  # edited while the judgment step asks `scripted`
        path.write_text(yaml.safe_dump(configs))
        out, err = process.communicate(timeout=900)
    said = " ".join((out + err).split())
    (versions, judged) = _graders(demo_warehouse)["default"]
    assert len(versions) == 1, versions
    if process.returncode == 0:  # the run held its grader: every grade by `scripted`, none by the other
        assert versions[0] != with_other and judged > 0, said
        assert f"regraded 1 pair(s) with grader {versions[0]}" in said, said  # what it said is what it stored
    else:  # a step in another process read the edit: it stopped rather than mix two graders
        assert "the grader of demo/default changed during this run" in said, said
        assert versions == [with_other]
