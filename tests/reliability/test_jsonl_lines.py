"""JSON Lines are cut at "\\n" only: a valid line holding a raw U+2028 or U+0085 loads, and line numbers stay true."""

from __future__ import annotations

import json

import pytest

from ragpipe.inputs.jsonl import read_jsonl


@pytest.mark.parametrize(
    "separator", ["\u2028", "\u2029", "\u0085"]
)  # json.dumps escapes control characters below U+0020
def test_a_raw_unicode_line_separator_inside_a_string_is_not_a_line_break(tmp_path, separator):
    path = tmp_path / "rows.jsonl"
    rows = [{"id": "a", "text": f"before{separator}after"}, {"id": "b", "text": "plain"}, "not an object"]
    # ensure_ascii=False keeps the character raw, as many writers do
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    problems = []
    loaded = read_jsonl(path, problems)
    assert [(n, r["id"]) for n, r in loaded] == [(1, "a"), (2, "b")]
    assert loaded[0][1]["text"] == f"before{separator}after"
    assert [(p.line, p.message) for p in problems] == [(3, "expected a JSON object")]


def test_windows_line_ends_still_load(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b'{"id": "a"}\r\n{"id": "b"}\r\n')
    problems = []
    assert [r["id"] for _, r in read_jsonl(path, problems)] == ["a", "b"] and not problems
