"""What the UI says of pairs graded by another grader: the seven grading nodes of the lineage turn red at the
default zoom, and no other node (assets/grading/behind.py: a failed check of severity ERROR); after a regrade
they turn green and the description's warning clears without a click on "Reload definitions" (it once
outlived the fix beside a green check): `make dev`'s webserver reloads its definitions when the warehouse
is graded again (assets/deploy/definitions_watch.py)."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request

import pytest

from ragpipe.grading.rules import DEFAULT_RULES
from tests.browser import chromium, new_page
from tests.commands import dev_log_tail, env_for, free_port, ragpipe, start_dagster_dev

GRADING = ("rule_verdicts", "judgments", "grades", "scorecards", "grade_delta", "agreement", "review_report")
RED_BOXES = """() => [...document.querySelectorAll('div')].filter(e => String(e.className).includes('AssetNode')
  && getComputedStyle(e).borderColor.startsWith('rgb(') && (([r, g]) => r > 150 && r > g + 60)(
  getComputedStyle(e).borderColor.slice(4, -1).split(',').map(Number))).length"""
NODE_COLOURS = """(names) => Object.fromEntries(names.map(name => {
  const label = [...document.querySelectorAll('div')].find(e => e.childElementCount === 0 && e.textContent.trim() === name);
  let box = label;
  while (box && !String(box.className).includes('minimalAssetNodeBox')) box = box.parentElement;
  return [name, box ? getComputedStyle(box).borderColor : null];
}))"""
DESCRIPTION = '{ assetNodeOrError(assetKey: {path: ["scorecards"]}) { ... on AssetNode { description } } }'
WARNING = "\u26a0 As the definitions loaded"


def _description(port: int) -> str | None:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/graphql",
        data=json.dumps({"query": DESCRIPTION}).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.load(reply)["data"]["assetNodeOrError"].get("description")
    except OSError:
        return None  # the webserver not up yet, or reloading


def _colour(css: str | None) -> str:
    """red, green or other, of a CSS rgb() colour."""
    if css is None:
        return "absent"
    r, g, b = (int(float(x)) for x in css[css.index("(") + 1 : css.index(")")].split(",")[:3])
    return "red" if r > 150 and r > g + 60 else "green" if g > 150 and g > r + 60 else "other"


def _group(page, port: int, group: str, last: str, shot) -> None:
    """`group`'s lineage at the default viewport and zoom, its nodes' live data arrived (and a shot)."""
    page.goto(f"http://127.0.0.1:{port}/locations/assets.definitions:defs/asset-groups/{group}/lineage")
    page.get_by_text(last).first.wait_for()
    time.sleep(2)  # the nodes' live data arrives after their boxes
    skip = page.get_by_role("button", name="Skip")  # Dagster's welcome dialog, on a new instance
    if skip.count():
        skip.first.click()
    page.screenshot(path=str(shot))


def _nodes(page, port: int, group: str, names: tuple[str, ...], shot) -> dict[str, str]:
    """The colours of `names`' nodes on `group`'s lineage at the default viewport and zoom."""
    _group(page, port, group, names[-1], shot)
    return {n: _colour(c) for n, c in page.evaluate(NODE_COLOURS, list(names)).items()}


def _grading_nodes_when(page, port: int, red: bool, shot, deadline: float) -> dict[str, str]:
    """The grading group's seven nodes once every one is red (or none is): the grader_watch sensor evaluates
    the check every 30 s, a materialization with it; the bound only catches a hang."""
    seen: dict[str, str] = {}
    while time.monotonic() < deadline:
        seen = _nodes(page, port, "grading", GRADING, shot)
        if all((seen[n] == "red") == red for n in GRADING):
            return seen
        time.sleep(3)
    raise AssertionError(f"the grading nodes never {'all turned' if red else 'all left'} red: {seen}")


def _until(port: int, shown: bool, deadline: float) -> str:
    """The scorecards' description once it does (or does not) lead with the warning; the bound only
    catches a hang."""
    said = None
    while time.monotonic() < deadline:
        said = _description(port)
        if said is not None and (WARNING in said) == shown:
            return said
        time.sleep(1)
    raise AssertionError(f"the warning {'never showed' if shown else 'never cleared'}: {said!r}")


@pytest.mark.end_to_end
def test_the_behind_warning_clears_after_a_regrade_without_reloading_by_hand(demo_warehouse, tmp_path):
    candidate = tmp_path / "candidate.yaml"  # the extractive engine's "could not find" stops declining
    candidate.write_text(DEFAULT_RULES.read_text().replace("    - could not find\n", ""))
    (tmp_path / "dagster_home").mkdir()
    env = env_for(tmp_path, RAGPIPE_WAREHOUSE=str(demo_warehouse), RAGPIPE_RULES=str(candidate))
    env["DAGSTER_HOME"] = str(tmp_path / "dagster_home")
    port = free_port()
    ui = start_dagster_dev(env, port)
    try:
        with chromium() as browser:
            page = new_page(browser)  # the default viewport: the group's graph at its default zoom, boxes
            before = _until(port, True, time.monotonic() + 600)
            assert "1 of 1 pairs' scorecards are by another grader" in before, before
            behind = _grading_nodes_when(page, port, True, tmp_path / "behind.png", time.monotonic() + 600)
            red_boxes = page.evaluate(RED_BOXES)  # on the grading group's graph: the seven, no other box
            _group(page, port, "corpus", "needles", tmp_path / "corpus.png")
            red_elsewhere = page.evaluate(RED_BOXES)
            done = ragpipe(env, "regrade")  # from a terminal, beside the running UI
            assert done.returncode in (0, 1), done.stdout + done.stderr  # 1: a money figure blocked, said
            after = _until(port, False, time.monotonic() + 600)
            caught_up = _grading_nodes_when(page, port, False, tmp_path / "caught-up.png", time.monotonic() + 600)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{dev_log_tail(env)}") from None
    finally:
        os.killpg(ui.pid, signal.SIGKILL)
        ui.wait(timeout=60)
    assert WARNING not in after and set(behind.values()) == {"red"} and "red" not in caught_up.values()
    assert red_boxes == len(GRADING) and red_elsewhere == 0, (red_boxes, red_elsewhere)  # and only those
