"""An imported answer set is its file's content, not its path: `run --engine import --answers F` again after
F was edited in place asks the new file (it once replayed the old answers from the answer log, silently),
and says that the stored set is replaced."""

from __future__ import annotations

import json

import duckdb
import pytest

from tests.commands import env_for, ragpipe

pytestmark = pytest.mark.end_to_end


def _stored(warehouse) -> dict[str, str]:
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        rows = conn.execute(
            "SELECT question_id, answer FROM answers WHERE config = 'default' AND answer_set = 'import:mine'"
        ).fetchall()
    return dict(rows)


def test_a_file_edited_in_place_is_asked_again_and_the_replacement_said(demo_warehouse, tmp_path):
    with duckdb.connect(str(demo_warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        questions = [q for (q,) in conn.execute("SELECT question_id FROM questions ORDER BY 1").fetchall()]
    path = tmp_path / "mine.jsonl"
    path.write_text(
        "".join(json.dumps({"question_id": q, "answer": "The documents do not say."}) + "\n" for q in questions)
    )
    env = env_for(tmp_path, RAGPIPE_WAREHOUSE=str(demo_warehouse))
    (tmp_path / "dh").mkdir()
    run = ("run", "--corpus", "demo", "--config", "default", "--engine", "import", "--answers", str(path))
    first = ragpipe(env, *run)
    assert first.returncode in (0, 1) and "replaced" not in first.stdout, first.stdout + first.stderr
    assert set(_stored(demo_warehouse).values()) == {"The documents do not say."}

    path.write_text(path.read_text().replace("The documents do not say.", "I cannot tell from these papers."))
    second = ragpipe(env, *run)
    said = second.stdout + second.stderr
    assert second.returncode in (0, 1), said
    assert "answer set import:mine on demo/default: replaced" in said and str(path) in said
    assert set(_stored(demo_warehouse).values()) == {"I cannot tell from these papers."}

    third = ragpipe(env, *run)  # the same content again: nothing to say, the same answers
    assert "replaced" not in third.stdout + third.stderr
    assert set(_stored(demo_warehouse).values()) == {"I cannot tell from these papers."}
