"""Bad manifests, question files and rules files: refused with file, line and field; nothing written."""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb
import pytest
from dagster import DagsterInstance

from assets.runs.runner import regrade_pair, run_corpus, run_corpus_stages
from assets.shared.resources import resources_for
from ragpipe.corpus.manifest import ManifestError, load_manifest
from ragpipe.grading.rules import DEFAULT_RULES, RulesError, load_rules
from tests.conftest import warehouse_resources
from tests.reliability.pdfs import corpora_with, text_pdf

GOOD = """questions:
  - id: rent
    text: What is the monthly rent?
    kind: answerable
    gold_answer: $2,150 a month.
    golden_docs: [lease]
"""

BAD_QUESTIONS = {
    "invalid YAML": (GOOD + "  - id: [oops\n", r"questions.yaml:8: field \(file\): invalid YAML"),
    "unknown field": (
        GOOD + "  - id: x\n    text: t\n    kind: negative\n    colour: blue\n",
        r"questions.yaml:7: field colour",
    ),
    "wrong type": (
        GOOD + "  - id: x\n    text: t\n    kind: negative\n    golden_docs: 5\n",
        r"questions.yaml:7: field golden_docs",
    ),
    "duplicate id": (
        GOOD + "  - id: rent\n    text: again?\n    kind: negative\n",
        r"questions.yaml:7: field id: duplicate question id 'rent'",
    ),
    "unknown document": (
        GOOD + "  - id: x\n    text: t\n    kind: answerable\n    golden_docs: [ghost]\n",
        r"questions.yaml:7: field golden_docs: .*unknown document",
    ),
    "path escape": (
        GOOD + "  - id: x\n    text: t\n    kind: answerable\n    golden_docs: [../../etc/passwd]\n",
        r"questions.yaml:7: field golden_docs: .*'\.\./\.\./etc/passwd'",
    ),
    "not UTF-8": (
        GOOD + "  - id: x\n    text: caf\udce9\n    kind: negative\n",
        r"questions.yaml:8: field \(file\): not UTF-8",
    ),
}


def _corpus(tmp_path: Path, questions: str) -> dict:
    """The partition `demo`, pointed at a folder corpus of one lease and the given questions file."""
    pdfs = tmp_path / "pdfs"
    if not pdfs.exists():
        pdfs.mkdir()
        text_pdf(pdfs / "lease.pdf", ["Monthly rent is $2,150."])
    corpora = corpora_with(tmp_path, "demo", pdfs, "")
    (corpora / "demo" / "questions.yaml").write_bytes(questions.encode("utf-8", "surrogateescape"))
    return resources_for(tmp_path / "wh", corpora)


def _tables(warehouse: Path) -> str:
    """A hash of every corpus-stage row the warehouse holds (or 'empty')."""
    db = warehouse / "ragpipe.duckdb"
    if not db.exists():
        return "empty"
    with duckdb.connect(str(db), read_only=True) as conn:
        names = [r[0] for r in conn.execute("SELECT table_name FROM information_schema.tables ORDER BY 1").fetchall()]
        text = "".join(conn.execute(f'SELECT * FROM "{n}" ORDER BY ALL').df().to_csv() for n in names)
    return hashlib.sha256(text.encode()).hexdigest() if names else "empty"


@pytest.mark.parametrize("case", sorted(BAD_QUESTIONS))
def test_a_bad_question_file_refuses_the_corpus_before_anything_is_written(tmp_path, case):
    text, message = BAD_QUESTIONS[case]
    resources = _corpus(tmp_path, text)
    with pytest.raises(Exception) as failure:
        run_corpus_stages("demo", DagsterInstance.ephemeral(), resources)
    assert failure.match(message) or _cause_matches(failure.value, message), str(failure.value)
    assert _tables(tmp_path / "wh") == "empty"  # no documents, no pages, nothing


def test_ragpipe_run_refuses_a_bad_question_file_in_its_own_words_before_any_run(tmp_path):
    """The command names file, line and field, exits 1, writes nothing, and starts no run (no Dagster
    step failure with its traceback printed above the message)."""
    from tests.commands import env_for, ragpipe

    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    text_pdf(pdfs / "lease.pdf", ["Monthly rent is $2,150."])
    corpora = corpora_with(tmp_path, "mine", pdfs, BAD_QUESTIONS["duplicate id"][0])
    out = ragpipe(env_for(tmp_path, RAGPIPE_CORPORA=str(corpora)), "run", "--corpus", "mine", "--config", "default")
    said = out.stdout + out.stderr
    assert out.returncode == 1 and "corpus 'mine' refused, nothing written for it" in said, said[-2000:]
    assert "questions.yaml:7: field id: duplicate question id 'rent'" in said
    assert "Traceback" not in said and "STEP_FAILURE" not in said and "materializing mine" not in said
    assert not (tmp_path / "wh").exists() and not (tmp_path / "dh" / "history").exists()


def _cause_matches(exc: BaseException, pattern: str) -> bool:
    import re

    while exc is not None:
        if re.search(pattern, str(exc)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def test_a_corpus_that_loaded_keeps_its_rows_while_its_questions_are_broken(tmp_path):
    resources = _corpus(tmp_path, GOOD)
    assert run_corpus_stages("demo", DagsterInstance.ephemeral(), resources).success
    before = _tables(tmp_path / "wh")
    (Path(resources["project"].corpora_dir) / "demo" / "questions.yaml").write_text(BAD_QUESTIONS["duplicate id"][0])
    with pytest.raises(Exception, match="duplicate"):
        run_corpus_stages("demo", DagsterInstance.ephemeral(), resources)
    assert _tables(tmp_path / "wh") == before != "empty"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name: x\nadapter: [folder\n", r"x.yaml: line \d+ invalid YAML"),
        (
            "name: x\nadapter: folder\ndata_dir: d\nquestions: q.yaml\ncolour: blue\n",
            r"x.yaml: line 5 field colour: Extra inputs",
        ),
        (
            "name: x\nadapter: folder\ndata_dir: d\nquestions: [q.yaml]\n",
            r"x.yaml: line 4 field questions: Input should be a valid string",
        ),
        (
            "name: x\nadapter: folder\ndata_dir: d\nquestions: ../../etc/passwd\n",
            r"x.yaml: line 4 field questions: '../../etc/passwd' escapes the corpus folder",
        ),
        (
            "name: x\nadapter: folder\ndata_dir: d\nimports:\n  - path: ../../etc\n    format: financebench_labels\n",
            r"x.yaml: line 5 field imports.0.path: '../../etc' must stay inside",
        ),
        ("name: x\nadapter: folder\ndescription: caf\udce9\n", r"x.yaml: line 3: not UTF-8"),
    ],
    ids=["invalid-yaml", "unknown-field", "wrong-type", "path-escape", "import-escape", "not-utf8"],
)
def test_a_bad_manifest_names_file_line_and_field(tmp_path, text, message):
    path = tmp_path / "x.yaml"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(ManifestError, match=message):
        load_manifest(path)


RULES_CASES = {
    "invalid regex": (
        lambda t: t.replace("patterns:\n", "patterns:\n    - pattern: '(unclosed'\n      reason: broken\n", 1),
        r"invalid regex",
    ),
    "empty decline list": (lambda t: _empty_phrases(t), r"field declines.phrases"),
    "unknown key": (lambda t: t + "\nsurprise: true\n", r"field surprise"),
}


def _empty_phrases(text: str) -> str:
    import yaml

    data = yaml.safe_load(text)
    data["declines"]["phrases"] = []
    return yaml.safe_dump(data)


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("graded")
    assert all(
        r.success
        for r in run_corpus(
            "demo", ["default"], instance=DagsterInstance.ephemeral(), resources=warehouse_resources(folder)
        )
    )
    return folder


def _grades(folder: Path) -> tuple[str, int]:
    with duckdb.connect(str(folder / "ragpipe.duckdb"), read_only=True) as conn:
        grades = conn.execute("SELECT * FROM grades ORDER BY ALL").df().to_csv()
        history = conn.execute("SELECT count(*) FROM grade_history").fetchall()[0][0]
    return hashlib.sha256(grades.encode()).hexdigest(), history


@pytest.mark.parametrize("case", sorted(RULES_CASES))
def test_a_bad_rules_file_is_refused_before_any_grade_is_written(graded, tmp_path, case):
    edit, message = RULES_CASES[case]
    path = tmp_path / "rules.yaml"
    path.write_text(edit(DEFAULT_RULES.read_text()))
    with pytest.raises(RulesError, match=message):
        load_rules(path)
    before = _grades(graded)
    result = regrade_pair(
        "demo", "default", instance=DagsterInstance.ephemeral(), resources=warehouse_resources(graded, rules_path=path)
    )
    assert not result.success
    assert _grades(graded) == before  # old grades and history untouched


@pytest.mark.parametrize("text", ["questions: []\n"])
def test_ragpipe_run_refuses_an_empty_question_file_in_its_own_words_before_any_run(tmp_path, text):
    """It once failed in three steps' tracebacks (`Table with name answers does not exist`, 245 lines)."""
    from tests.commands import env_for, ragpipe

    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    text_pdf(pdfs / "lease.pdf", ["Monthly rent is $2,150."])
    corpora = corpora_with(tmp_path, "mine", pdfs, text)
    out = ragpipe(env_for(tmp_path, RAGPIPE_CORPORA=str(corpora)), "run", "--corpus", "mine", "--config", "default")
    said = out.stdout + out.stderr
    assert out.returncode == 1 and "questions.yaml:1: field (file): holds no question" in said, said[-2000:]
    assert "Traceback" not in said and "materializing mine" not in said and len(said.splitlines()) <= 3
