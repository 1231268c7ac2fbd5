"""Which label counts is decided by the order the warehouse received labels, never by a date a file
states: a flipped export counts once imported, a future date pins nothing, a far-past one costs its line
alone, two labels never tie, and an import that changes nothing says so. Real label files, a real
warehouse, the CLI in its own process."""

from __future__ import annotations

import json
import shutil

import duckdb
import pytest

from ragpipe.labels.import_lines import read_label_lines
from ragpipe.labels.store import add_labels, latest_labels
from tests.commands import env_for, ragpipe
from tests.end_to_end.test_label_files import PAIR, _questions, _store, _write


@pytest.fixture()
def conn(tmp_path, demo_warehouse_once):
    shutil.copytree(demo_warehouse_once, tmp_path / "wh")
    with duckdb.connect(str(tmp_path / "wh" / "ragpipe.duckdb")) as conn:
        yield conn


def _counting(conn) -> dict[str, tuple[str, str]]:
    latest = latest_labels(conn, "demo", "default")
    return {q: (label, who) for q, label, who in zip(latest["question_id"], latest["label"], latest["labeller"])}


@pytest.mark.end_to_end
def test_an_exported_file_flipped_in_an_editor_counts_once_imported_and_flips_back(tmp_path, demo_warehouse_once):
    shutil.copytree(demo_warehouse_once, tmp_path / "wh")
    (tmp_path / "dh").mkdir()
    env, db = env_for(tmp_path), str(tmp_path / "wh" / "ragpipe.duckdb")
    with duckdb.connect(db) as conn:
        qs = _questions(conn, 4)
        _store(conn, _write(tmp_path / "given.jsonl", [{**PAIR, "question_id": q, "label": "correct"} for q in qs]))
    exported = ragpipe(env, "labels", "export").stdout.splitlines()
    flipped = [json.dumps({**json.loads(x), "label": "incorrect"}) for x in exported]  # labelled_at kept
    (tmp_path / "flipped.jsonl").write_text("\n".join(flipped) + "\n")
    out = ragpipe(env, "labels", "import", str(tmp_path / "flipped.jsonl"))
    assert out.returncode == 0 and "imported 4 label(s)" in out.stdout, out.stdout + out.stderr
    assert "4 answer(s) now count another label" in out.stdout
    with duckdb.connect(db, read_only=True) as conn:
        assert set(_counting(conn).values()) == {("incorrect", "unknown")}
    back = ragpipe(env, "labels", "import", str(tmp_path / "flipped.jsonl"))
    assert "nothing changed" in back.stdout, back.stdout  # the same file again: it says so
    (tmp_path / "back.jsonl").write_text("\n".join(exported) + "\n")  # the first export, word for word
    back = ragpipe(env, "labels", "import", str(tmp_path / "back.jsonl"))
    assert "imported 4 label(s)" in back.stdout and "4 answer(s) now count another label" in back.stdout
    with duckdb.connect(db, read_only=True) as conn:
        assert set(_counting(conn).values()) == {("correct", "unknown")}


def test_a_date_in_the_file_never_decides_and_implausible_dates_cost_their_line_alone(conn, tmp_path):
    q1, q2, q3 = _questions(conn)
    path = _write(
        tmp_path / "dated.jsonl",
        [
            {**PAIR, "question_id": q1, "label": "correct", "labeller": "ana", "labelled_at": "2026-06-01T00:00:00Z"},
            {**PAIR, "question_id": q2, "label": "correct", "labeller": "ana", "labelled_at": "2027-01-01T00:00:00Z"},
            {**PAIR, "question_id": q2, "label": "correct", "labelled_at": "0001-01-01T00:00:00+05:00"},
            {**PAIR, "question_id": q3, "label": "refusal", "labelled_at": "1969-12-31T23:59:59Z"},
            {**PAIR, "question_id": q3, "label": "incorrect", "labeller": "bo"},
        ],
    )
    read, added = _store(conn, path)
    assert [(p.line, p.field) for p in read.problems] == [(2, "labelled_at"), (3, "labelled_at"), (4, "labelled_at")]
    assert "in the future" in read.problems[0].message and "before 1970" in read.problems[1].message
    assert "before 1970" in read.problems[2].message and added == 2
    # bo labels q1 later, with a date years before ana's: received last, his label counts
    later = _write(
        tmp_path / "later.jsonl",
        [{**PAIR, "question_id": q1, "label": "incorrect", "labeller": "bo", "labelled_at": "2020-01-01T00:00:00Z"}],
    )
    _store(conn, later)
    assert _counting(conn)[q1] == ("incorrect", "bo")
    _store(conn, _write(tmp_path / "ana.jsonl", [{**PAIR, "question_id": q1, "label": "refusal", "labeller": "ana"}]))
    assert _counting(conn)[q1] == ("refusal", "ana")
    received = conn.execute("SELECT received FROM human_labels ORDER BY received").fetchall()
    assert [r for (r,) in received] == list(range(1, len(received) + 1))  # never two alike


def test_two_labels_given_at_one_instant_never_tie(conn, tmp_path):
    (q1,) = _questions(conn, 1)
    when = "2026-01-01T00:00:00Z"
    lines = [{**PAIR, "question_id": q1, "label": lab, "labeller": who, "labelled_at": when}
             for lab, who in [("incorrect", "zed"), ("correct", "ana")]]  # fmt: skip
    _store(conn, _write(tmp_path / "tie.jsonl", lines))
    assert _counting(conn)[q1] == ("correct", "ana")  # the later line, though "zed" sorts after "ana"
    _store(conn, _write(tmp_path / "zed.jsonl", [{**lines[0], "label": "refusal"}]))
    assert _counting(conn)[q1] == ("refusal", "zed")


def test_a_warehouse_labelled_before_received_keeps_what_counted_and_numbers_it_on_its_next_write(conn, tmp_path):
    q1, q2, q3 = _questions(conn)
    rows = [
        {**PAIR, "question_id": q1, "label": "correct", "labeller": "ana", "labelled_at": "2026-03-01T00:00:00Z"},
        {**PAIR, "question_id": q1, "label": "incorrect", "labeller": "bo", "labelled_at": "2026-02-01T00:00:00Z"},
        {**PAIR, "question_id": q2, "label": "refusal", "labeller": "bo", "labelled_at": "2026-02-01T00:00:00Z"},
    ]
    _store(conn, _write(tmp_path / "old.jsonl", rows))
    conn.execute("ALTER TABLE human_labels DROP COLUMN received")  # as a warehouse written before it
    old = _counting(conn)
    assert old[q1] == ("correct", "ana")  # read in the order that decided then: the later date
    read = read_label_lines(conn, _write(tmp_path / "new.jsonl", [{**PAIR, "question_id": q3, "label": "correct"}]))
    add_labels(conn, read.rows)
    assert {q: v for q, v in _counting(conn).items() if q != q3} == old
    numbers = conn.execute("SELECT labeller, labelled_at, received FROM human_labels ORDER BY received").fetchall()
    assert [n for *_, n in numbers] == [1, 2, 3, 4] and numbers[-1][0] == "unknown"


@pytest.mark.parametrize("name", ["", "   ", "x" * 150])
def test_a_labeller_the_page_would_store_but_files_could_not_read_back_is_refused_by_both(name, conn, tmp_path):
    from tests.commands import invoke

    page = invoke("label", "--corpus", "demo", "--config", "default", "--answers", "extractive", "--labeller", name)
    assert page.exit_code == 2 and "--labeller" in page.output and "labeller" in page.output.split("--labeller")[-1]
    (q1,) = _questions(conn, 1)
    read, added = _store(
        conn, _write(tmp_path / "l.jsonl", [{**PAIR, "question_id": q1, "label": "correct", "labeller": name}])
    )
    assert added == 0 and [(p.line, p.field) for p in read.problems] == [(1, "labeller")]
