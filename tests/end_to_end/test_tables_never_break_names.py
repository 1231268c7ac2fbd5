"""Tables on a terminal of any width never break a name: a table whose names fit whole is printed with them
whole (the other columns wrap at spaces), and one that cannot fit prints each row as a block."""

from __future__ import annotations

import io

import pytest
from rich import box
from rich.console import Console

from ragpipe.cli.fitted import print_fitted
from tests.commands import env_for, ragpipe_in_terminal

NAMES = ["labeled:claude-2_inContext", "labeled:gpt-4-1106-preview_singleStore", "extractive"]
COLUMNS = ["#", "system", "accuracy % (correct/graded)", "[95%]", "people % [95%]", "vs best [95%]"]
ROWS = [[str(i), n, "36.0 (53/147)", "[28.7, 44.1]", "37.3 exact, all 150 labelled", "behind -38.1 [-47.6, -28.6]"]
        for i, n in enumerate(NAMES)]  # fmt: skip


@pytest.mark.parametrize("width", [40, 60, 80, 90, 100, 110, 120, 160, 220])
@pytest.mark.parametrize("lines", [box.HEAVY_HEAD, box.SIMPLE_HEAD])
def test_every_name_is_on_one_line_and_no_word_is_cut(width, lines):
    out = io.StringIO()
    print_fitted(Console(width=width, file=out, markup=False), "leaderboard", COLUMNS, ROWS, {"system"}, lines=lines)
    text = out.getvalue()
    for name in NAMES:
        assert name in text, (width, text)  # whole, on one line
    for word in ("(53/147)", "[28.7,", "44.1]", "labelled", "[-47.6,", "-28.6]", "(correct/graded)"):
        assert word in text, (width, word, text)  # wrapped at spaces, never inside a word
    table = any(line.startswith(("┏", " ─", "─")) or "━" in line for line in text.splitlines())
    if table:  # the table form stays within the terminal
        assert max(len(line) for line in text.splitlines()) <= width
    else:  # the vertical form: a block per row, its name first
        assert "  accuracy % (correct/graded): 36.0 (53/147)" in text


@pytest.mark.end_to_end
def test_the_leaderboard_and_scorecards_on_an_80_column_terminal(tmp_path, demo_warehouse_once):
    env = env_for(tmp_path)
    env["RAGPIPE_WAREHOUSE"] = str(demo_warehouse_once)
    for args in (("leaderboard", "--corpus", "demo"), ("scorecard", "--corpus", "demo")):
        for columns in (60, 80, 200):
            shown = ragpipe_in_terminal(env, *args, columns=columns)
            assert "extractive" in shown, shown
            for line in shown.splitlines():
                for token in line.replace("│", " ").split():
                    # every answer-set name is printed whole: no line holds a piece of one
                    assert not (token.startswith("extra") and token not in ("extractive", "extractive-strict")), (
                        columns,
                        shown,
                    )
