"""Text from the data made safe to print: a stored answer is anyone's bytes, and a terminal obeys the
control sequences in what it is given (`ESC ] 0 ; title BEL` renames the window, `ESC [ 2 J` clears the
screen). Every control character but the line break and the tab is shown as its escape (`\\x1b`), C1
controls (`\\x9b`, a one-byte CSI) and DEL included; nothing else changes. The commands print through
`PrintableConsole` and `ragpipe.cli.app.say`, so no table, line or message passes a control on."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.console import Console
from rich.segment import Segment

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """`text` with every control character but \\n and \\t written as its escape."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", text)


class PrintableConsole(Console):
    """A rich console that prints text with its control characters escaped, whatever a table or a line
    holds, while its own styles and cursor moves (a progress bar's) pass: rich keeps those apart from the
    text, as a segment's style or as control segments. Every command prints through one."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(s if s.control else Segment(printable(s.text), s.style) for s in buffer)
