"""`--data-dir` takes the corpus's folder or the folder that holds it as `<corpus>/`, as the README's
"sits in `../shared/data` (or `--data-dir`)" reads; a folder that is neither stays the one named, so the
error says what was given."""

import pytest

from ragpipe.cli.run import _use_data_dir
from tests.conftest import SHARED


@pytest.fixture()
def clean_env(monkeypatch):
    monkeypatch.delenv("RAGPIPE_FINANCEBENCH_DIR", raising=False)
    return monkeypatch


@pytest.mark.skipif(not (SHARED / "financebench").is_dir(), reason="needs ../shared/data/financebench")
@pytest.mark.parametrize(("given", "used"), [("", "financebench"), ("financebench", "financebench")])
def test_the_corpus_folder_or_its_parent(clean_env, given, used):
    import os

    _use_data_dir(["financebench"], SHARED / given if given else SHARED)
    assert os.environ["RAGPIPE_FINANCEBENCH_DIR"] == str((SHARED / used).resolve())


def test_a_folder_that_is_neither_stays_the_one_named(clean_env, tmp_path):
    import os

    (tmp_path / "financebench").mkdir()  # an empty one below: still not the corpus's data
    _use_data_dir(["financebench"], tmp_path)
    assert os.environ["RAGPIPE_FINANCEBENCH_DIR"] == str(tmp_path.resolve())


@pytest.mark.parametrize("made", ["a loop", "nothing"])
def test_a_folder_that_cannot_be_reached_is_one_line_naming_it(clean_env, tmp_path, made):
    """A loop of symbolic links once printed pathlib's traceback ("Symlink loop from ..."); a missing folder
    is said as missing, before any run."""
    import typer

    given = tmp_path / "a"
    if made == "a loop":
        (tmp_path / "b").symlink_to(given)
        given.symlink_to(tmp_path / "b")
    with pytest.raises(typer.BadParameter) as refused:
        _use_data_dir(["financebench"], given)
    said = str(refused.value)
    assert said.startswith(f"--data-dir {given}: ")
    assert ("loop of symbolic links" if made == "a loop" else "no such folder") in said
