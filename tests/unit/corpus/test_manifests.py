"""Manifests, configurations and question files: refused with file, line and field."""

import pytest

from ragpipe.corpus.manifest import ManifestError, list_corpora, load_configs, load_manifest, resolve_config
from ragpipe.corpus.questions import QuestionError, load_questions, read_questions
from tests.conftest import ROOT


def test_shipped_manifests_and_configs_load():
    corpora = list_corpora(ROOT / "corpora")
    assert "demo" in corpora
    configs = load_configs(ROOT / "corpora")
    assert {"default", "small-chunks", "wide-k"} <= set(configs)
    cfg = resolve_config(corpora["demo"], "small-chunks", configs)
    assert cfg.chunk_size < resolve_config(corpora["demo"], "default", configs).chunk_size


def test_a_question_file_beside_the_manifests_is_passed_over_and_a_broken_manifest_is_not(tmp_path):
    """A question file set down in corpora/ once broke every command ("field name: Field required"); it
    names no corpus and no adapter, so it is no manifest. A file that tries to be one still says what is
    wrong."""
    (tmp_path / "x.yaml").write_text("name: x\nadapter: folder\ndata_dir: pdfs\nquestions: q.yaml\n")
    (tmp_path / "my-questions.yaml").write_text((ROOT / "corpora/demo/questions.yaml").read_text())
    (tmp_path / "notes.yaml").write_text("- a list\n- of notes\n")
    assert list(list_corpora(tmp_path)) == ["x"]
    (tmp_path / "y.yaml").write_text("name: y\nquestions: q.yaml\n")
    with pytest.raises(ManifestError, match=r"y.yaml: field adapter"):
        list_corpora(tmp_path)


def test_unknown_field_in_manifest(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("name: x\nadapter: folder\ndata_dir: pdfs\nquestions: q.yaml\ncolour: blue\n")
    with pytest.raises(ManifestError, match=r"x.yaml: line 5 field colour"):
        load_manifest(path)


def test_invalid_yaml_names_the_line(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("name: x\nadapter: [folder\n")
    with pytest.raises(ManifestError, match=r"x.yaml: line \d+ invalid YAML"):
        load_manifest(path)


def test_bad_config_knobs(tmp_path):
    manifest = tmp_path / "x.yaml"
    manifest.write_text("name: x\nadapter: folder\ndata_dir: pdfs\nquestions: q.yaml\n")
    with pytest.raises(ManifestError, match="chunk_overlap must be smaller"):
        resolve_config(load_manifest(manifest), "c", {"c": {"chunk_size": 50, "chunk_overlap": 50}})
    with pytest.raises(ManifestError, match="unknown configuration 'zzz'"):
        resolve_config(load_manifest(manifest), "zzz", {"c": {}})


def test_question_errors_name_file_line_and_field(tmp_path):
    path = tmp_path / "q.yaml"
    path.write_text(
        "questions:\n  - id: a\n    text: t\n    kind: answerable\n  - id: b\n    text: t\n    kind: maybe\n"
    )
    with pytest.raises(QuestionError, match=r"q.yaml:5: field kind"):
        load_questions(path)
    path.write_text(
        "questions:\n  - id: a\n    text: t\n    kind: negative\n  - id: a\n    text: u\n    kind: negative\n"
    )
    with pytest.raises(QuestionError, match="duplicate question id 'a'"):
        load_questions(path)
    jsonl = tmp_path / "q.jsonl"
    jsonl.write_text('{"id": "a", "text": "t", "kind": "negative"}\n{"id": "b", "text": \n')
    with pytest.raises(QuestionError, match=r"q.jsonl:2: .*invalid JSON"):
        load_questions(jsonl)
    jsonl.write_text('{"id": "a", "text": "t", "kind": "answerable", "money_key": "$1 or $2"}\n')
    with pytest.raises(QuestionError, match=r"q.jsonl:1: field money_key"):
        load_questions(jsonl)


def test_every_bad_row_is_reported_with_file_line_and_field(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text(
        '{"id": "a", "text": "t", "kind": "answerable", "golden_docs": ["lease"]}\n'
        '{"id": "b", "text": "t", "kind": "answerable", "golden_docs": ["ghost"]}\n'
        "not json\n"
        '{"id": "d", "text": "t", "kind": "negative", "colour": "blue"}\n'
        '{"id": "a", "text": "again", "kind": "negative"}\n'
    )
    loaded = read_questions(path, {"lease"})
    assert [q.id for q in loaded.questions] == ["a"]
    problems = [(p.line, p.field) for p in loaded.problems]
    assert problems == [(2, "golden_docs"), (3, "(line)"), (4, "colour"), (5, "id")]
    assert "ghost" in str(loaded.problems[0]) and str(loaded.problems[0]).startswith(f"{path}:2: field golden_docs")
    with pytest.raises(QuestionError, match=r"q.jsonl:2: field golden_docs"):
        load_questions(path, {"lease"})


def test_a_configuration_file_rewritten_is_read_afresh_and_a_read_cannot_change_the_next(tmp_path):
    """The YAML parse is kept per text (a regrade read configs.yaml some thirty times a pair): a file
    rewritten, even in the same second and at the same size, is read as it now is."""
    path = tmp_path / "configs.yaml"
    path.write_text("configs:\n  default: {top_k: 5}\n")
    first = load_configs(tmp_path)
    first["default"]["top_k"] = 99  # a caller changing what it got
    assert load_configs(tmp_path) == {"default": {"top_k": 5}}
    path.write_text("configs:\n  default: {top_k: 7}\n")
    assert load_configs(tmp_path) == {"default": {"top_k": 7}}
