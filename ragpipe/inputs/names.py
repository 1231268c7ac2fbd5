"""What a name may be: answer sets and configurations, checked where a user gives them.

Names travel everywhere: into paths (a configuration names folders of Parquet,
the index and TREC files), SQL filters, terminal tables, SVG plots and HTML.
A configuration named `x/../../../tmp/out` wrote outside the warehouse; a set
named `$\\foo$` failed matplotlib; `[/]` failed rich. So a name is a short
run of plain characters, and anything else is refused in one line that says
what a name may hold.

- configuration: 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit;
- answer set: 1-100 of those and `: + @ / =` (so `openai:meta-llama/Llama-3-8B`
  and `import:run=3` are names), starting with a letter or digit, with no
  `..` (a name never reads as a path that climbs). The prefix
  `labeled:` is kept for answer sets people labelled (a corpus's `imports`).
"""

from __future__ import annotations

import re

CONFIG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
SET_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:+@/=-]{0,99}")
LABELLED_PREFIX = "labeled:"


class NameRefused(ValueError):
    """A name that is not one, said in one line."""


def config_name(name: str) -> str:
    if not isinstance(name, str) or not CONFIG_NAME.fullmatch(name):
        raise NameRefused(
            f"configuration name {name!r}: a name is 1-64 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return name


def answer_set_name(name: str, labelled: bool = False) -> str:
    """`name` if it may name an answer set; `labelled` sets (people's verdicts) alone take `labeled:`."""
    if not isinstance(name, str) or not SET_NAME.fullmatch(name) or ".." in name:
        raise NameRefused(
            f"answer set name {name!r}: a name is 1-100 letters, digits or any of . _ - : + @ / =, "
            "starting with a letter or digit, without '..' (give another with --answer-set)"
        )
    if name.startswith(LABELLED_PREFIX) and not labelled:
        raise NameRefused(
            f"answer set name {name!r}: '{LABELLED_PREFIX}' is kept for answers people labelled (a corpus's imports)"
        )
    return name
