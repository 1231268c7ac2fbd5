"""docs/grader.md's table of checks is the registry's: each built-in check in its order, with the rules
sections it owns; a check added, removed or moved without the table fails here."""

import re

from ragpipe.grading.checks.registry import discover
from tests.conftest import ROOT


def _table() -> list[tuple[int, str, str]]:
    text = (ROOT / "docs" / "grader.md").read_text()
    section = text[text.index("## Checks: the grader as units") : text.index("### Adding a check")]
    rows = re.findall(r"^\| (\d+) \| `(\w+)`[^|]*\| ([^|]*) \|", section, re.M)
    return [(int(order), check, sections.strip()) for order, check, sections in rows]


def test_the_check_table_is_the_registry():
    built_in = discover(plugins=False)
    table = _table()
    assert [(order, check) for order, check, _ in table] == [(c.order, c.id) for c in built_in]
    for (_, _, said), check in zip(table, built_in):
        for section in check.sections:
            assert f"`{section}`" in said, (check.id, section)
