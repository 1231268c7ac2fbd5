"""A project's judges are configured beside its own corpus configurations: a project whose corpora folder
is not the environment's reads its own configs.yaml (RAGPIPE_JUDGES names another file for everyone)."""

from __future__ import annotations

from pathlib import Path

from ragpipe.warehouse.settings import corpora_dir, judges_path


def test_the_judges_file_follows_the_project_folder_unless_the_environment_names_one(monkeypatch, tmp_path):
    monkeypatch.delenv("RAGPIPE_JUDGES", raising=False)
    assert judges_path(tmp_path) == tmp_path / "configs.yaml"
    assert judges_path() == corpora_dir() / "configs.yaml"
    monkeypatch.setenv("RAGPIPE_JUDGES", str(tmp_path / "judges.yaml"))
    assert judges_path(Path("/elsewhere")) == tmp_path / "judges.yaml"


def test_a_projects_pair_judge_is_read_from_its_own_folder(monkeypatch, tmp_path):
    import shutil

    from assets.shared.resources import resources_for
    from tests.conftest import ROOT

    monkeypatch.delenv("RAGPIPE_JUDGES", raising=False)
    monkeypatch.delenv("RAGPIPE_JUDGE", raising=False)
    corpora = tmp_path / "corpora"
    shutil.copytree(ROOT / "corpora", corpora)
    configs = corpora / "configs.yaml"
    text = configs.read_text().replace("judges:\n", "judges:\n  mine:\n    recorded: true\n", 1)
    configs.write_text(text.replace("    concurrency: 1\n", "    concurrency: 1\n    judge: mine\n", 1))  # default
    project = resources_for(tmp_path / "wh", corpora)["project"]
    judging = project.judging_of("demo", "default")  # the project's own configs.yaml, not the environment's
    assert judging.config is not None and judging.config.name == "mine" and judging.config.recorded
    assert "+r-" in judging.rules.version
