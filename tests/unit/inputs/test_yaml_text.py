"""A YAML file whose aliases expand past a bound is refused before anything is built, naming the file,
wherever the project reads YAML: rules, a manifest, a question file, the judges' configuration."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragpipe.inputs.yaml_text import MAX_NODES, YamlTooLarge, load_yaml


def laughs(levels: int, width: int = 9) -> str:
    """The billion laughs: each level an anchored list of `width` aliases of the one before."""
    lines = ['a0: &a0 ["lol"]']
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_the_billion_laughs_is_refused_and_a_small_alias_is_read():
    assert len(laughs(9)) < 600  # the 554 bytes: 9**9 lists of "lol"
    with pytest.raises(YamlTooLarge, match="expand past"):
        load_yaml(laughs(9))
    assert load_yaml(laughs(2))["a2"] == [[["lol"]] * 9] * 9
    assert load_yaml("base: &b {x: 1}\nother: *b\n") == {"base": {"x": 1}, "other": {"x": 1}}


def test_an_alias_that_contains_itself_is_refused():
    with pytest.raises(YamlTooLarge, match="contains it"):
        load_yaml("a: &a [1, *a]\n")


@given(st.integers(1, 12), st.integers(2, 6))
def test_a_document_is_refused_exactly_when_it_expands_past_the_bound(levels, width):
    expanded = 1 + sum(_size(i, width) + 1 for i in range(levels + 1))  # the mapping, each key and value
    try:
        load_yaml(laughs(levels, width))
    except YamlTooLarge:
        assert max(_size(i, width) for i in range(levels + 1)) > MAX_NODES or expanded > MAX_NODES
    else:
        assert expanded <= MAX_NODES


def _size(level: int, width: int) -> int:
    """Nodes of level `level` expanded: a list of one scalar, then lists of `width` of the level below."""
    return 2 if level == 0 else 1 + width * _size(level - 1, width)


def test_each_reader_names_the_file(tmp_path):
    from ragpipe.corpus.manifest import ManifestError, load_manifest
    from ragpipe.corpus.questions import read_questions
    from ragpipe.grading.rules import RulesError, load_rules
    from ragpipe.judge import JudgeError
    from ragpipe.judge.config import load_judges

    bomb = laughs(9)
    for name, read, error in (
        ("rules.yaml", load_rules, RulesError),
        ("manifest.yaml", load_manifest, ManifestError),
        ("configs.yaml", load_judges, JudgeError),
    ):
        path = tmp_path / name
        path.write_text(bomb)
        with pytest.raises(error, match=str(path)):
            read(path)
    path = tmp_path / "questions.yaml"
    path.write_text(bomb)
    loaded = read_questions(path)
    assert not loaded.questions and "expand past" in loaded.problems[0].message and loaded.problems[0].file == str(path)
