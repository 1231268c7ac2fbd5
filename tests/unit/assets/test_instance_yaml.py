"""The Dagster instance's dagster.yaml, written from the environment: SQLite unless RAGPIPE_POSTGRES_URL
is set, variables named and never their values, and a file of the user's own left alone."""

from __future__ import annotations

import yaml

from assets.deploy.instance import LEGACY, MARK, instance_yaml, write_instance_yaml

URL = "postgresql+psycopg2://ragpipe:s3cret@db.internal:5432/ragpipe"


def test_sqlite_by_default_postgres_and_a_shared_root_when_asked_never_a_value():
    plain = yaml.safe_load(instance_yaml({}))
    assert "storage" not in plain and plain["nux"] == {"enabled": False} and plain["telemetry"] == {"enabled": False}
    both = yaml.safe_load(instance_yaml({"RAGPIPE_POSTGRES_URL": URL, "RAGPIPE_STORAGE_ROOT": "/shared/dagster"}))
    assert both["storage"] == {"postgres": {"postgres_url": {"env": "RAGPIPE_POSTGRES_URL"}}}
    assert both["local_artifact_storage"]["config"] == {"base_dir": {"env": "RAGPIPE_STORAGE_ROOT"}}
    assert "s3cret" not in instance_yaml({"RAGPIPE_POSTGRES_URL": URL}) and "/shared" not in str(both)


def test_ragpipe_rewrites_its_own_file_and_leaves_a_users_alone(tmp_path):
    path = tmp_path / "dagster.yaml"
    path.write_text(LEGACY)  # what earlier versions wrote: ragpipe's too
    assert write_instance_yaml(tmp_path, {"RAGPIPE_POSTGRES_URL": URL})
    assert path.read_text().startswith(MARK) and "postgres" in path.read_text()
    assert write_instance_yaml(tmp_path, {}) and "postgres" not in path.read_text()  # the variable unset: SQLite
    path.write_text("storage:\n  sqlite:\n    base_dir: /mine\n")
    assert not write_instance_yaml(tmp_path, {"RAGPIPE_POSTGRES_URL": URL})
    assert path.read_text() == "storage:\n  sqlite:\n    base_dir: /mine\n"
