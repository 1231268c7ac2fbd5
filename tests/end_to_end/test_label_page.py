"""The labelling page in a real browser: real clicks and keys end up as `human_labels` rows at once; a
killed server loses nothing and a restarted one resumes the same seeded draw; stopping it recomputes the
scorecards with people's accuracy."""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

import duckdb
import pytest

from tests.browser import chromium, new_page
from tests.commands import env_for, start

pytestmark = pytest.mark.end_to_end  # a page served by `ragpipe label` in its own process, driven by Chromium

LABEL = ("label", "--corpus", "demo", "--config", "default", "--answers", "extractive", "--n", "6", "--seed", "3")


def _serve(env, *extra):
    """`ragpipe label ...` started; returns the process and its page's URL (its first line)."""
    process = start(env, *LABEL, *extra)
    line = process.stdout.readline()
    assert "http://127.0.0.1:" in line, line + process.stderr.read()
    return process, line.split(" at ")[1].split()[0]


def _rows(warehouse: Path, sql: str):
    with duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True) as conn:
        return conn.execute(sql).fetchall()


def test_clicks_are_rows_a_kill_loses_nothing_and_a_restart_resumes(tmp_path, demo_warehouse_once):
    env = env_for(tmp_path)
    shutil.copytree(demo_warehouse_once, tmp_path / "wh")
    (tmp_path / "dh").mkdir()
    warehouse = tmp_path / "wh"

    process, url = _serve(env, "--labeller", "ana")
    with chromium() as browser:
        tab = new_page(browser)
        errors: list[str] = []
        tab.on("pageerror", lambda e: errors.append(str(e)))
        tab.goto(url)
        first = tab.locator("#item").get_attribute("data-answer-id")
        # the grader's verdict and marks are hidden until the person labels: they would anchor the person
        assert tab.locator("#question").inner_text() and tab.locator("#verdict").count() == 0
        assert tab.locator("#answer span").count() == 0
        cited = [_the_cited_passages_are_shown(tab, warehouse, url, i) for i in range(6)]
        assert any(cited) and not all(cited)  # the draw holds answers citing passages and one citing none
        tab.goto(url)
        tab.click("#correct")  # a click
        tab.wait_for_selector("#labelled:text('1')")
        # ... then whether the grader agreed is shown
        assert tab.locator("#agreement").inner_text() in ("agree", "disagree")
        # a mis-click is taken back: undo removes the row and shows the answer again
        tab.click("#incorrect")
        tab.wait_for_selector("#labelled:text('2')")
        taken = tab.locator("#last").inner_text()
        tab.locator("body").press("u")
        tab.wait_for_selector("#labelled:text('1')")
        assert "you said incorrect" in taken and tab.locator("#verdict").count() == 0
        second = tab.locator("#item").get_attribute("data-answer-id")
        tab.fill("#note", "the figure is last year's")
        tab.click("#incorrect")
        tab.wait_for_selector("#labelled:text('2')")
        tab.locator("body").press("r")  # a key
        tab.wait_for_selector("#labelled:text('3')")
        shown_next = tab.locator("#item").get_attribute("data-answer-id")

        process.send_signal(signal.SIGKILL)  # killed: every click is already a row
        process.wait(timeout=30)
        stored = _rows(warehouse, "SELECT answer_id, label, labeller, note FROM human_labels ORDER BY labelled_at")
        drawn = [a for (a,) in _rows(warehouse, "SELECT answer_id FROM label_samples ORDER BY position")]
        assert [(a, lab) for a, lab, _, _ in stored] == [
            (first, "correct"),
            (second, "incorrect"),
            (drawn[2], "refusal"),
        ]
        assert stored[1][2:] == ("ana", "the figure is last year's") and drawn[:2] == [first, second]
        assert len(drawn) == 6

        process, url = _serve(env, "--labeller", "ana")  # the same seed: the same draw, resumed
        tab.goto(url)
        assert tab.locator("#labelled").inner_text() == "3" and tab.locator("#total").inner_text() == "6"
        assert tab.locator("#item").get_attribute("data-answer-id") == shown_next == drawn[3]
        assert errors == []

    process.send_signal(signal.SIGINT)  # stopped as a person stops it: the scorecards take the labels in
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert "3 of 6 labelled" in out
    (labels,) = _rows(warehouse, "SELECT labels FROM scorecards WHERE answer_set = 'extractive'")
    assert labels == (3,)


def _the_cited_passages_are_shown(tab, warehouse: Path, url: str, index: int) -> int:
    """The passages the answer at `index` cites (`[1]` in its text) are on the page beside it: each cited
    chunk's document, pages and text, as the engine saw it; an answer citing nothing says so."""
    tab.goto(f"{url}?item={index}")
    answer_id = tab.locator("#item").get_attribute("data-answer-id")
    ((cited,),) = _rows(warehouse, f"SELECT cited_chunks FROM answers WHERE answer_id = '{answer_id}'")
    shown = tab.locator(".passage")
    assert [shown.nth(i).get_attribute("data-chunk-id") for i in range(shown.count())] == list(cited)
    for i, chunk_id in enumerate(cited):
        ((doc, text),) = _rows(warehouse, f"SELECT doc_id, text FROM chunks WHERE chunk_id = '{chunk_id}'")
        passage = " ".join(shown.nth(i).inner_text().split())
        assert passage.startswith(f"[{i + 1}] {doc}, p. ") and " ".join(text.split())[:80] in passage
    if not cited:
        assert tab.locator("#no-passage").inner_text() == "the answer cites no passage"
    return len(cited)
