"""Debian's Chromium driven by Playwright, as every page test starts it (skipped, saying why, when either
is missing). One place for the launch, so no test file keeps a copy."""

from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# without these, Chromium reaches for Google's hosts at start and the closed network refuses it
QUIET = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextmanager
def chromium():
    """A headless Chromium browser (Playwright's sync API)."""
    binary = CHROMIUM if CHROMIUM.exists() else shutil.which("chromium")
    if not binary:
        pytest.skip("Chromium is not installed (make test installs Debian's chromium package; it could not here)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is a dev dependency: pip install -e '.[dev]'"
    )
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(binary), args=QUIET)
        try:
            yield browser
        finally:
            browser.close()
