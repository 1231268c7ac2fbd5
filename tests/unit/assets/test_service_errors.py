"""Which server a failed run lost, told from where its error came from, and only among those in use."""

from __future__ import annotations

import pytest

from assets.deploy.service_errors import down_in_exception


class OperationalError(Exception):
    pass


OperationalError.__module__ = "sqlalchemy.exc"


def _raised(exc: Exception) -> Exception:
    try:
        try:
            raise exc
        except Exception as inner:
            raise RuntimeError("the step failed") from inner
    except RuntimeError as outer:
        return outer


def test_an_error_from_postgres_names_it_with_its_address_and_no_password(monkeypatch):
    monkeypatch.setenv("RAGPIPE_POSTGRES_URL", "postgresql+psycopg2://ragpipe:s3cret@db.internal:5432/ragpipe")
    down = down_in_exception(_raised(OperationalError("connection to server failed: Connection refused")))
    assert down is not None and str(down).startswith("PostgreSQL at db.internal:5432 (RAGPIPE_POSTGRES_URL) stopped")
    assert "s3cret" not in str(down)


@pytest.mark.parametrize("variable", ["", "RAGPIPE_REDIS_URL"])
def test_without_postgres_in_use_sqlalchemy_errors_are_no_service_down(monkeypatch, variable):
    """Dagster's SQLite storage raises SQLAlchemy's errors too: those are not PostgreSQL stopping."""
    monkeypatch.delenv("RAGPIPE_POSTGRES_URL", raising=False)
    if variable:
        monkeypatch.setenv(variable, "redis://127.0.0.1:6379/0")
    assert down_in_exception(_raised(OperationalError("unable to open database file: connect"))) is None
