"""Every relative link in the README and docs/ resolves: a file that exists, and a heading it names."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT

LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings."""
    headings = re.findall(r"^#+ (.+)$", path.read_text(), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def _broken(page: Path) -> list[str]:
    broken = []
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)  # code blocks hold no links
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # http(s), mailto: not this test's business
        file, _, anchor = target.partition("#")
        resolved = (page.parent / file).resolve() if file else page
        if not resolved.exists():
            broken.append(f"{page.relative_to(ROOT)}: {target} (no {resolved})")
        elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
            broken.append(f"{page.relative_to(ROOT)}: {target} (no heading #{anchor})")
        elif resolved == page and not anchor:
            broken.append(f"{page.relative_to(ROOT)}: {target} links to itself")
    return broken


def test_every_relative_link_resolves():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    assert len(pages) > 5
    broken = [b for page in pages for b in _broken(page)]
    assert broken == [], "\n".join(broken)


def test_the_checker_finds_a_broken_link(tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[fine](#title) [gone](missing.md) [self](page.md) [nohead](#nope)\n")
    monkeypatch.setattr("tests.unit.docs.test_docs_links.ROOT", tmp_path)
    assert [b.split(": ", 1)[1].split(" ")[0] for b in _broken(page)] == ["missing.md", "page.md", "#nope"]
