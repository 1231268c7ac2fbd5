"""Stored text printed to a terminal never drives it: every control character but the line break and
the tab is shown as its escape, and nothing else changes."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.inputs.terminal import printable


def test_the_issues_sequence_is_shown_not_obeyed():
    assert printable("ok\x1b]0;PWNED\x07\x1b[2J done") == "ok\\x1b]0;PWNED\\x07\\x1b[2J done"
    assert printable("a\x9b2Jb\x7f") == "a\\x9b2Jb\\x7f"  # a one-byte CSI, DEL


@given(st.text())
def test_no_control_character_but_newline_and_tab_survives_and_the_rest_is_kept(text):
    out = printable(text)
    assert not any((ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F for c in out)
    kept = [c for c in text if not ((ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F)]
    if "\\" not in text:  # each escape taken out again leaves the printable characters, in order
        assert re.sub(r"\\x[0-9a-f]{2}", "", out) == "".join(kept)
    assert printable(out) == out
