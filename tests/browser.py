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
HANG_MS = 300_000  # Playwright's waits are bounds that only catch a hang: a loaded machine is slow, not stuck


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


def new_page(browser_or_context, **options):
    """A page whose every wait is bounded by HANG_MS (Playwright's own default, 30 s, is a guess at speed)."""
    page = browser_or_context.new_page(**options)
    page.set_default_timeout(HANG_MS)
    page.set_default_navigation_timeout(HANG_MS)
    return page
