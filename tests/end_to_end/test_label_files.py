"""Label files as people write them: one bad line costs that line, a file says each label once (the later
line wins, a million copies are one row), and what `labels export` writes imports as it is."""

from __future__ import annotations

import json
import shutil

import duckdb
import pytest

from ragpipe.labels.import_lines import read_label_lines
from ragpipe.labels.store import add_labels, latest_labels
from tests.commands import env_for, ragpipe

PAIR = {"corpus": "demo", "config": "default", "answer_set": "extractive"}


@pytest.fixture()
def conn(tmp_path, demo_warehouse_once):
    shutil.copytree(demo_warehouse_once, tmp_path / "wh")
    with duckdb.connect(str(tmp_path / "wh" / "ragpipe.duckdb")) as conn:
        yield conn


def _questions(conn, n=3) -> list[str]:
    rows = conn.execute(
        "SELECT question_id FROM answers WHERE answer_set = 'extractive' ORDER BY question_id LIMIT ?", [n]
    ).fetchall()
    return [q for (q,) in rows]


def _write(path, lines: list) -> object:
    path.write_bytes(b"".join((json.dumps(x).encode() if isinstance(x, dict) else x) + b"\n" for x in lines))
    return path


def _store(conn, path):
    read = read_label_lines(conn, path)
    return read, add_labels(conn, read.rows)


def test_a_line_that_is_not_utf8_is_skipped_and_named_and_the_rest_import(conn, tmp_path):
    q1, q2, _ = _questions(conn)
    path = _write(
        tmp_path / "l.jsonl",
        [{**PAIR, "question_id": q1, "label": "correct"}, b'{"note": "caf\xe9"}', {**PAIR, "question_id": q2, "label": "refusal"}],
    )  # fmt: skip
    read, added = _store(conn, path)
    assert added == 2 and read.lines_skipped == 1
    assert [(p.line, p.field) for p in read.problems] == [(2, "(line)")] and "not UTF-8" in read.problems[0].message


def test_a_label_given_twice_on_a_line_or_an_unseen_labeller_costs_that_line(conn, tmp_path):
    """`"label"` twice on one line once took the last silently; a labeller of a zero-width space, ESC or a
    line break was stored. Each is its line's problem, named; the other lines import."""
    q1, q2, q3 = _questions(conn)
    pair = json.dumps({**PAIR, "question_id": q1})[:-1]
    twice = (pair + ', "label": "correct", "label": "incorrect"}').encode()
    lines = [
        twice,
        {**PAIR, "question_id": q2, "label": "correct", "labeller": "\u200b"},
        {**PAIR, "question_id": q2, "label": "correct", "labeller": "ana\x1b]0;PWNED\x07"},
        {**PAIR, "question_id": q3, "label": "refusal", "labeller": "ana"},
    ]
    read, added = _store(conn, _write(tmp_path / "l.jsonl", lines))
    assert added == 1 and read.lines_skipped == 3
    said = {(p.line, p.field): p.message for p in read.problems}
    assert "given twice" in said[(1, "label")]
    assert "U+200B (zero width space)" in said[(2, "labeller")] and "U+001B" in said[(3, "labeller")]


def test_a_hundred_thousand_copies_of_one_label_are_one_row(conn, tmp_path):
    (q1,) = _questions(conn, 1)
    line = json.dumps({**PAIR, "question_id": q1, "label": "correct", "labeller": "ana"}).encode()
    path = tmp_path / "many.jsonl"
    path.write_bytes((line + b"\n") * 100_000)
    read, added = _store(conn, path)
    assert (added, read.sound_lines, read.problems) == (1, 100_000, [])
    read, added = _store(conn, path)  # the same file again: the warehouse holds that label already
    assert added == 0 and conn.execute("SELECT count(*) FROM human_labels").fetchall() == [(1,)]


def test_the_later_line_wins_within_one_file(conn, tmp_path):
    q1, q2, _ = _questions(conn)
    path = _write(
        tmp_path / "revised.jsonl",
        [
            {**PAIR, "question_id": q1, "label": "correct", "labeller": "ana"},
            {**PAIR, "question_id": q1, "label": "incorrect", "labeller": "ana"},  # ana changed her mind
            {**PAIR, "question_id": q2, "label": "correct", "labeller": "ana"},
            {**PAIR, "question_id": q2, "label": "refusal", "labeller": "bo"},  # bo, later in the file
        ],
    )
    read, added = _store(conn, path)
    assert added == 3  # ana's first word on q1 is not a label she gave
    latest = latest_labels(conn, "demo", "default").set_index("question_id")
    assert latest.loc[q1, "label"] == "incorrect" and latest.loc[q2, ["label", "labeller"]].tolist() == [
        "refusal",
        "bo",
    ]


def test_five_bad_fields_on_one_line_are_one_line_skipped(conn, tmp_path):
    path = _write(
        tmp_path / "bad.jsonl", [{"corpus": "", "config": "", "answer_set": "", "question_id": "", "label": "?"}]
    )
    read, _ = _store(conn, path)
    assert len(read.problems) == 5 and read.lines_skipped == 1


def test_what_export_writes_imports_as_it_is(tmp_path, demo_warehouse_once):
    shutil.copytree(demo_warehouse_once, tmp_path / "wh")
    (tmp_path / "dh").mkdir()
    env, db = env_for(tmp_path), str(tmp_path / "wh" / "ragpipe.duckdb")
    with duckdb.connect(db) as conn:
        q1, q2, q3 = _questions(conn)
        given = [{**PAIR, "question_id": q, "label": label, "labeller": "ana", "note": "n"} for q, label in
                 [(q1, "correct"), (q2, "incorrect"), (q3, "refusal")]]  # fmt: skip
        _store(conn, _write(tmp_path / "given.jsonl", given))
        stored = conn.execute("SELECT * EXCLUDE (source) FROM human_labels ORDER BY answer_id").fetchall()
    out = ragpipe(env, "labels", "export", timeout=600)
    assert out.returncode == 0 and len(out.stdout.splitlines()) == 3, out.stderr
    exported = tmp_path / "exported.jsonl"
    exported.write_text(out.stdout)  # with answer_id, input_sha, labelled_at, source and current
    again = ragpipe(env, "labels", "import", str(exported), timeout=600)  # into the warehouse that holds them
    said = again.stdout + again.stderr
    assert again.returncode == 0 and "imported 0 label(s) (0 line(s) skipped, 3 said again" in said, said
    with duckdb.connect(db) as conn:
        conn.execute("DELETE FROM human_labels")
    restored = ragpipe(env, "labels", "import", str(exported), timeout=600)  # into one that lost them
    assert restored.returncode == 0 and "imported 3 label(s) (0 line(s) skipped)" in restored.stdout, restored.stderr
    with duckdb.connect(db, read_only=True) as conn:
        assert conn.execute("SELECT * EXCLUDE (source) FROM human_labels ORDER BY answer_id").fetchall() == stored
