"""The ledger: gradings in time order, a revert read as the inverse, history that drops no verdict,
and a grader version computed from everything that decides one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from dagster import DagsterInstance

from assets.runs.runner import regrade_pair
from ragpipe.grading.grade_table import grade_answers
from ragpipe.grading.rules import DEFAULT_RULES, load_rules
from ragpipe.grading.version import PACKAGE_ROOT, code_fingerprint, grader_fingerprint, verdict_modules
from ragpipe.history.delta import event_delta, grade_delta, latest_delta, stored_delta
from ragpipe.history.ledger import VERDICT_COLUMNS, grading_events, record_grading
from ragpipe.warehouse.tables import read_partition
from tests.commands import ragpipe
from tests.conftest import warehouse_resources

FLIP = [
    "corpus",
    "config",
    "answer_set",
    "question_id",
    "answer_id",
    "old_verdict",
    "new_verdict",
    "old_declined",
    "new_declined",
]


def _candidate(tmp_path: Path) -> Path:
    """The shipped rules without `could not find`: the extractive engine's declines stop counting."""
    text = DEFAULT_RULES.read_text()
    assert "    - could not find\n" in text
    path = tmp_path / "candidate.yaml"
    path.write_text(text.replace("    - could not find\n", ""))
    return path


def _flips(delta: dict) -> set[tuple]:
    return {tuple(f[k] for k in FLIP) for f in delta["flips"]}


def _inverse(flips: set[tuple]) -> set[tuple]:
    return {(c, k, s, q, a, new, old, new_d, old_d) for c, k, s, q, a, old, new, old_d, new_d in flips}


def _asset_delta(result) -> dict:
    [event] = [e for e in result.get_asset_materialization_events() if e.asset_key.to_user_string() == "grade_delta"]
    return {k: v.value for k, v in event.materialization.metadata.items()}


def assert_history_matches_grades(conn: duckdb.DuckDBPyConnection) -> None:
    """The invariant: the latest history row of every answer is its row in `grades`."""
    columns = ", ".join(VERDICT_COLUMNS)
    mismatched = conn.execute(
        f"SELECT answer_id, {columns} FROM grades EXCEPT SELECT answer_id, {columns} FROM ("
        "SELECT * FROM grade_history QUALIFY row_number() OVER (PARTITION BY answer_id "
        "ORDER BY event_seq DESC, graded_at DESC) = 1)"
    ).df()
    assert mismatched.empty, mismatched


def test_a_revert_is_the_exact_inverse_in_the_cli_and_the_asset(tmp_path, demo_warehouse):
    instance = DagsterInstance.ephemeral()
    shipped = warehouse_resources(demo_warehouse)
    candidate = warehouse_resources(demo_warehouse, rules_path=_candidate(tmp_path))
    db = demo_warehouse / "ragpipe.duckdb"

    forward_run = regrade_pair("demo", "default", instance=instance, resources=candidate)
    with duckdb.connect(str(db), read_only=True) as conn:
        forward = stored_delta(conn)
    assert (
        forward["from_version"] == load_rules().version
        and forward["to_version"] == load_rules(_candidate(tmp_path)).version
    )
    assert forward["changed"] >= 4 and forward["monotone"] is False
    assert _asset_delta(forward_run)["changed"] == forward["changed"]

    back_run = regrade_pair("demo", "default", instance=instance, resources=shipped)
    with duckdb.connect(str(db), read_only=True) as conn:
        back = stored_delta(conn)
        stored = conn.execute("SELECT * FROM grade_deltas WHERE to_event = ?", [back["events"][0]["to_event"]]).df()
        assert_history_matches_grades(conn)
        versions = conn.execute("SELECT DISTINCT grader_version FROM grade_history").df()["grader_version"]
        events = grading_events(conn, "demo", "default")
        rows_per_answer = conn.execute("SELECT answer_id, count(*) AS n FROM grade_history GROUP BY ALL").df()
        trail = conn.execute("SELECT answer_id, verdict FROM grade_history ORDER BY answer_id, event_seq").df()
    # previous -> current, whatever the versions: the revert undoes exactly what the candidate did
    assert (back["from_version"], back["to_version"]) == (forward["to_version"], forward["from_version"])
    assert _flips(back) == _inverse(_flips(forward)) and back["monotone"] is True
    # the asset says the same flips as the command
    assert (
        _asset_delta(back_run)["changed"] == back["changed"]
        and _asset_delta(back_run)["from_version"] == back["from_version"]
    )
    assert {tuple(r[k] for k in FLIP) for r in stored.to_dict("records")} == _flips(back)
    # the ledger keeps both versions and every verdict: each answer has a row per grading that moved the version
    assert set(versions) == {forward["from_version"], forward["to_version"]}
    assert list(events["grader_version"]) == [forward["from_version"], forward["to_version"], forward["from_version"]]
    assert set(rows_per_answer["n"]) == {3}
    for _c, _k, _s, _q, answer_id, old, new, *_ in _flips(forward):
        assert list(trail.loc[trail["answer_id"] == answer_id, "verdict"]) == [old, new, old]


def _whole_history_delta(conn, corpus: str, config: str) -> dict:
    """The delta as it was once computed: every answer the pair ever had, its latest row after each of the
    last two gradings by a window over the whole history, merged. The reference the reading by what moved
    must equal, flip for flip."""
    events = grading_events(conn, corpus, config)
    latest = (
        "SELECT * FROM grade_history WHERE corpus = ? AND config = ? AND coalesce(event_seq, 0) <= ? QUALIFY "
        "row_number() OVER (PARTITION BY answer_id ORDER BY coalesce(event_seq, 0) DESC, graded_at DESC, answer_sha) = 1"
    )
    before, after = (conn.execute(latest, [corpus, config, int(e)]).df() for e in events["seq"].iloc[-2:])
    return grade_delta(before, after)


def test_a_delta_read_by_what_moved_is_the_whole_historys_delta(tmp_path, demo_warehouse):
    """Three gradings (shipped, candidate, shipped): after each, the delta read from the rows the grading
    wrote, and the one the grade_delta asset stored, hold exactly the flips a window over the whole
    history finds, of the same answers."""
    instance = DagsterInstance.ephemeral()
    for rules_path in (_candidate(tmp_path), None):
        assert regrade_pair(
            "demo", "default", instance=instance, resources=warehouse_resources(demo_warehouse, rules_path=rules_path)
        ).success
        with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
            reference = _whole_history_delta(conn, "demo", "default")
            read = event_delta(conn, "demo", "default")
            stored = latest_delta(conn, "demo", "default")
        assert reference["changed"] >= 4
        for delta in (read, stored):
            assert delta["flips"] == reference["flips"] and delta["summary"] == reference["summary"]
            assert (
                (delta["compared"], delta["monotone"])
                == (reference["compared"], reference["monotone"])
                == (
                    31,
                    rules_path is None,
                )
            )


def test_a_regrade_that_changed_nothing_hides_no_change(tmp_path, demo_warehouse):
    """shipped -> candidate -> candidate again: `ragpipe delta` shows the candidate's flips against the last
    grading under another version, says a grading lies between, and finds what the whole history finds."""
    instance = DagsterInstance.ephemeral()
    candidate = warehouse_resources(demo_warehouse, rules_path=_candidate(tmp_path))
    for _ in range(2):
        assert regrade_pair("demo", "default", instance=instance, resources=candidate).success
    env = {**os.environ, "RAGPIPE_WAREHOUSE": str(demo_warehouse), "DAGSTER_HOME": str(tmp_path / "dh")}
    out = ragpipe(env, "delta", "--corpus", "demo", "--config", "default")
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        shown = stored_delta(conn, "demo", "default")
        events = grading_events(conn, "demo", "default")
        latest = event_delta(conn, "demo", "default")  # the asset's: the latest grading against the one before
        reference = grade_delta(
            *(
                conn.execute(
                    "SELECT * FROM grade_history WHERE corpus = 'demo' AND config = 'default' AND coalesce(event_seq, 0) "
                    "<= ? QUALIFY row_number() OVER (PARTITION BY answer_id ORDER BY coalesce(event_seq, 0) DESC, "
                    "graded_at DESC, answer_sha) = 1",
                    [int(seq)],
                ).df()
                for seq in (events["seq"].iloc[0], events["seq"].iloc[-1])
            )
        )
    assert latest["changed"] == 0 and shown["changed"] == reference["changed"] >= 4
    assert shown["flips"] == reference["flips"] and shown["compared"] == 31
    assert shown["events"][0]["between"] == 1 and shown["events"][0]["from_event"] == int(events["seq"].iloc[0])
    assert out.returncode == 0 and f"{reference['changed']} of 31 answers changed" in out.stdout, out.stdout
    assert "1 grading(s) between, under the latest's version" in out.stdout


def test_a_grown_history_changes_no_delta_and_no_verdict(tmp_path, demo_warehouse):
    """bench/history.py's growth writes the schema the code writes: grown to 20,000 rows of past gradings and
    retired answer sets, the pair's latest rows are still its grades, and its delta, by what moved and by
    versions, is the one it had, of the answers it holds."""
    sys.path.insert(0, str(PACKAGE_ROOT.parent / "bench"))
    from history import grow

    assert regrade_pair(
        "demo",
        "default",
        instance=DagsterInstance.ephemeral(),
        resources=warehouse_resources(demo_warehouse, rules_path=_candidate(tmp_path)),
    ).success
    db = demo_warehouse / "ragpipe.duckdb"
    versions = {"from_version": load_rules().version, "to_version": load_rules(_candidate(tmp_path)).version}
    with duckdb.connect(str(db), read_only=True) as conn:
        before, pinned = stored_delta(conn), stored_delta(conn, **versions)
    built = grow(db, 20_000)
    with duckdb.connect(str(db), read_only=True) as conn:
        assert_history_matches_grades(conn)
        after, pinned_after = stored_delta(conn), stored_delta(conn, **versions)
    assert built["rows"] == 20_000 and built["answers_ever"] > 31
    assert after["flips"] == before["flips"] and after["compared"] == before["compared"] == 31
    assert pinned_after["flips"] == pinned["flips"] and pinned_after["compared"] == 31


def test_explicit_versions_still_compare_those_versions(tmp_path, demo_warehouse):
    instance = DagsterInstance.ephemeral()
    candidate_path = _candidate(tmp_path)
    assert regrade_pair(
        "demo", "default", instance=instance, resources=warehouse_resources(demo_warehouse, rules_path=candidate_path)
    ).success
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        default = stored_delta(conn)
        pinned = stored_delta(conn, from_version=load_rules(candidate_path).version, to_version=load_rules().version)
    assert _flips(pinned) == _inverse(_flips(default))


def test_a_changed_input_under_the_same_version_is_recorded(demo_warehouse):
    """A question row or its needles changing changes verdicts without a new grader version: history sees it."""
    rules = load_rules()
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb")) as conn:
        keys = {"corpus": "demo", "config": "default"}
        answers = read_partition(conn, "answers", keys)
        questions = read_partition(conn, "questions", {"corpus": "demo"})
        needles = read_partition(conn, "needles", {"corpus": "demo"})
        graded = grade_answers(answers, questions, needles, rules)
        target = graded.loc[
            (graded["verdict"] == "correct") & (graded["kind"] == "answerable") & ~graded["declined"]
        ].iloc[0]
        changed = questions.copy()  # the corpus now says the answer is not in the documents
        changed.loc[changed["question_id"] == target["question_id"], "kind"] = "negative"
        regraded = grade_answers(answers, changed, needles, rules)
        before = conn.execute("SELECT count(*) FROM grade_history").fetchall()[0][0]
        record_grading(conn, "demo", "default", regraded, answers, rules, "test-run", pd.Timestamp.now(tz="UTC"))
        conn.execute("DELETE FROM grades WHERE corpus = 'demo' AND config = 'default'")
        conn.register("regraded", regraded)
        conn.execute("INSERT INTO grades BY NAME SELECT * FROM regraded")
        rows = conn.execute(
            "SELECT verdict, input_sha FROM grade_history WHERE answer_id = ? ORDER BY event_seq", [target["answer_id"]]
        ).df()
        assert (
            conn.execute("SELECT count(*) FROM grade_history").fetchall()[0][0] - before
            == (graded["input_sha"] != regraded["input_sha"]).sum()
        )
        assert_history_matches_grades(conn)
    assert list(rows["verdict"]) == ["correct", "wrong"] and rows["input_sha"].nunique() == 2
    # nothing changed: recording again adds no row
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb")) as conn:
        event = record_grading(conn, "demo", "default", regraded, answers, rules, "again", pd.Timestamp.now(tz="UTC"))
    assert event["history_rows"] == 0


def _tree_copy(tmp_path: Path) -> Path:
    root = tmp_path / "ragpipe"
    shutil.copytree(PACKAGE_ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.mark.parametrize("module", verdict_modules())
def test_editing_any_verdict_module_changes_the_grader_version(tmp_path, module):
    root = _tree_copy(tmp_path)
    rules = DEFAULT_RULES.read_bytes()
    before = grader_fingerprint(rules, root).version
    assert before == load_rules().version  # the copy is the installed code
    path = root / module
    path.write_text(path.read_text() + "\nSMALL_NUMBER = 11  # a constant edited\n")
    assert grader_fingerprint(rules, root).version != before


def test_a_constant_in_the_sentence_splitter_moves_the_version(tmp_path):
    root = _tree_copy(tmp_path)
    path = root / "text" / "sentences.py"
    text = path.read_text()
    assert "(?<=[.!?;])" in text  # where a sentence ends: parsing, so it stays in code, and is hashed
    before = code_fingerprint(root)[0]
    path.write_text(text.replace("(?<=[.!?;])", "(?<=[.!?])"))
    assert code_fingerprint(root)[0] != before


def test_the_confidence_model_file_is_part_of_the_version(tmp_path):
    """Firmness is computed from grading/confidence.json: a refitted model is another grader."""
    import json

    root = _tree_copy(tmp_path)
    before = code_fingerprint(root)[0]
    path = root / "grading" / "confidence.json"
    model = json.loads(path.read_text())
    model["intercept"] += 0.5
    path.write_text(json.dumps(model))
    assert code_fingerprint(root)[0] != before


def test_the_walk_is_cached_by_the_source_and_walked_again_after_any_edit(tmp_path, monkeypatch):
    from ragpipe.grading import version

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root, kept = _tree_copy(tmp_path), tmp_path / "cache" / "ragpipe"
    first = verdict_modules(root)
    assert first == version._walk(root) and len(list(kept.glob("*.json"))) == 1
    assert verdict_modules(root) == first and len(list(kept.glob("*.json"))) == 1  # read back, not walked
    assert "review/plots.py" not in first
    path = root / "grading" / "checks" / "citations.py"  # a check that starts importing a module: it joins
    path.write_text(path.read_text() + "\nfrom ragpipe.review import plots  # noqa: E402\n")
    assert "review/plots.py" in verdict_modules(root) and len(list(kept.glob("*.json"))) == 2
    for cached in kept.glob("*.json"):
        cached.write_text("{not json")  # a damaged cache is walked past
    assert verdict_modules(root) == version._walk(root)


# the hand-kept list the version was hashed from before it was derived, each module where it lives now
# (checks/money_key.py is text/money.py; the decline detection is the decline check's package; the regex
# trie, the own-voice reading and the rule regexes are text/)
_LISTED_BEFORE = """
grading/grade_table.py grading/grade.py grading/grader.py grading/outcomes.py grading/checks/decline/decide.py
grading/checks/decline/grammar.py text/regex_trie.py text/voice.py text/patterns.py grading/checks/__init__.py
grading/checks/view.py grading/checks/registry.py grading/checks/decline/__init__.py text/money.py
grading/checks/money_guard.py grading/checks/forbidden.py grading/checks/polarity.py grading/checks/needles.py
grading/checks/citations.py grading/rules.py grading/version.py text/figures.py text/matching.py
text/calculation.py text/tokenize.py text/needle_kinds.py text/dates.py text/sentences.py text/stated.py
inputs/text.py inputs/json_file.py warehouse/nulls.py corpus/needle_mining.py corpus/gold_text.py corpus/questions.py
corpus/adapters/__init__.py corpus/adapters/contained.py corpus/adapters/demo.py corpus/adapters/folder.py
corpus/adapters/financebench.py corpus/adapters/aragog.py corpus/adapters/openragbench.py
""".split()


def test_the_derived_modules_cover_what_was_listed_by_hand_and_stop_only_where_a_module_says_why():
    derived = set(verdict_modules())
    assert set(_LISTED_BEFORE) <= derived
    stops = {
        p.relative_to(PACKAGE_ROOT).as_posix()
        for p in PACKAGE_ROOT.rglob("*.py")
        if "\nDECIDES_NO_VERDICT = " in p.read_text()
    }
    assert "warehouse/tables.py" in stops and not stops & derived
    for path in stops:
        import importlib

        reason = importlib.import_module("ragpipe." + path.removesuffix(".py").replace("/", ".")).DECIDES_NO_VERDICT
        assert isinstance(reason, str) and reason.strip(), path


THROWAWAY_CHECK = '''"""A throwaway check: an answer that shouts is wrong."""

from pydantic import BaseModel

from ragpipe.grading.checks.view import Check, Finding


class Shouting(BaseModel):
    marks: int = 3


def run(view, rules):  # the answer, and this check's own rules (its sections)
    if "!" * rules.shouting.marks in view.whole:
        return Finding("shouting", "wrong", "shouts", "shouting.too_loud")
    return None


CHECK = Check("shouting", run, "an answer that shouts", order=25, needs=("money_question",),
              sections={"shouting": Shouting}, rules=("shouting.too_loud",))
'''

_PROBE = """
from ragpipe.corpus.questions import Question
from ragpipe.grading.checks.registry import CHECK_IDS
from ragpipe.grading.grader import grade
from ragpipe.grading.rules import load_rules
rules = load_rules()
g = grade(Question(id="q", text="What is owed?", money_key="$12"), "You owe $12!!!", [], rules)
n = grade(Question(id="n", text="Who won?", gold_answer="Dana"), "Dana won!!!", [], rules, [("Dana", "name")])
print(rules.version, ",".join(CHECK_IDS), n.verdict, g.verdict, g.rule, getattr(getattr(rules, "shouting", None), "marks", "-"))
"""


def test_a_new_check_is_one_file_and_its_rules_slice_and_moves_the_version_by_itself(tmp_path):
    root = _tree_copy(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def probe() -> list[str]:
        done = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    before = probe()
    assert before[0] == load_rules().version  # the copy is the installed code
    (root / "grading" / "checks" / "shouting.py").write_text(THROWAWAY_CHECK)
    rules_yaml = root / "grading" / "rules.yaml"
    rules_yaml.write_text(rules_yaml.read_text() + "\nshouting:\n  marks: 3\n")
    after = probe()
    assert after[0] != before[0]
    assert after[1].split(",").index("shouting") == after[1].split(",").index("money_guard") + 1
    assert after[2:] == ["correct", "wrong", "shouting.too_loud", "3"]  # a question about no money: not run
    assert before[2:4] == ["correct", "correct"]


def test_rules_show_prints_what_a_version_was_made_of(tmp_path, demo_warehouse):
    instance = DagsterInstance.ephemeral()
    candidate_path = _candidate(tmp_path)
    assert regrade_pair(
        "demo", "default", instance=instance, resources=warehouse_resources(demo_warehouse, rules_path=candidate_path)
    ).success  # the candidate's version is now recorded
    env = {"RAGPIPE_WAREHOUSE": str(demo_warehouse), "PATH": "/usr/bin:/bin"}
    shown = ragpipe(env, "rules", "show", load_rules(candidate_path).version, "--json", timeout=120, check=True)
    record = json.loads(shown.stdout)
    assert record["rules_text"] == candidate_path.read_text() and record["code_sha"] == code_fingerprint()[0]
    missing = ragpipe(env, "rules", "show", "g-000000000000", timeout=120)
    assert missing.returncode == 1 and "not recorded" in missing.stdout


def test_scorecard_warns_when_grades_were_materialized_without_it(demo_warehouse):
    from dagster import AssetSelection, materialize

    from assets.definitions import built

    defs = built()
    from assets.runs.runner import QUIET
    from assets.shared.partitions import pair_key

    instance = DagsterInstance.ephemeral()
    resources = warehouse_resources(demo_warehouse)
    env = {"RAGPIPE_WAREHOUSE": str(demo_warehouse), "PATH": "/usr/bin:/bin"}
    fresh = ragpipe(env, "scorecard", "--json", timeout=120, check=True)
    assert "older than its grades" not in fresh.stderr
    # grades alone, as from the UI: the scorecards now describe an earlier grading
    result = materialize(
        [*defs.assets, *defs.asset_checks],
        selection=AssetSelection.assets("grades"),
        partition_key=pair_key("demo", "default"),
        instance=instance,
        resources=resources,
        run_config=QUIET,
    )
    assert result.success
    stale = ragpipe(env, "scorecard", "--json", timeout=120, check=True)
    assert "demo/default: scorecards are older than its grades" in stale.stderr
    assert json.loads(stale.stdout)  # the JSON on stdout stays clean
