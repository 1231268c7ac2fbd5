"""The suite runs on the locked versions: every pin in requirements.lock is what is installed."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from packaging.requirements import Requirement

from tests.conftest import ROOT


def test_every_locked_version_is_the_installed_one():
    pins = [
        Requirement(line)
        for line in (ROOT / "requirements.lock").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert len(pins) > 50 and all(str(p.specifier).startswith("==") for p in pins)
    off = []
    for pin in pins:
        try:
            installed = version(pin.name)
        except PackageNotFoundError:
            installed = "absent"
        if installed not in pin.specifier:
            off.append(f"{pin.name}: locked {pin.specifier}, installed {installed}")
    assert not off, "run `make` (it installs the lock), or move the lock with `make lock`: " + "; ".join(off)
