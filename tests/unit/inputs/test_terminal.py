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


HOSTILE = "ok\x1b]0;PWNED\x07\x1b[2J\x9b2J done"


@given(st.text(min_size=1))
def test_a_console_prints_no_control_character_of_the_data_and_keeps_its_own_styles(text):
    """Whatever a table holds, a terminal console's output carries no control character but the
    escape sequences of its own colours (SGR: ESC [ ... m), and the data's printable characters."""
    import io

    from rich.table import Table

    from ragpipe.inputs.terminal import PrintableConsole

    out = io.StringIO()
    console = PrintableConsole(file=out, force_terminal=True, color_system="standard", width=200, markup=False)
    table = Table("column")
    table.add_row(text)
    console.print(table, style="bold red")
    console.print(text, style="green")
    shown = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())  # the console's own styles
    assert not any((ord(c) < 32 and c not in "\n") or 0x7F <= ord(c) <= 0x9F for c in shown), repr(shown)
    assert "\x1b[" in out.getvalue()  # its styles were printed, not escaped


def test_a_progress_bar_still_moves_the_cursor():
    """Rich's own control segments pass: a live display's cursor moves are not escaped."""
    import io

    from rich.progress import Progress

    from ragpipe.inputs.terminal import PrintableConsole

    out = io.StringIO()
    console = PrintableConsole(file=out, force_terminal=True, width=80)
    with Progress(console=console, auto_refresh=False) as progress:
        task = progress.add_task(HOSTILE, total=2)
        progress.advance(task)
        progress.refresh()
    assert "\x1b[?25l" in out.getvalue()  # the cursor hidden while it draws
    assert "\x1b]0;" not in out.getvalue() and "\\x1b]0;PWNED" in out.getvalue()
