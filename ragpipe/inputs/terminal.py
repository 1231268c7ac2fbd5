"""Text from the data made safe to print: a stored answer is anyone's bytes, and a terminal obeys the
control sequences in what it is given (`ESC ] 0 ; title BEL` renames the window, `ESC [ 2 J` clears the
screen). Every control character but the line break and the tab is shown as its escape (`\\x1b`), C1
controls (`\\x9b`, a one-byte CSI) and DEL included; nothing else changes."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """`text` with every control character but \\n and \\t written as its escape."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", text)
