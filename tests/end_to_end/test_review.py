"""The review report: built from a real warehouse, checked in a real headless Chromium."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest
from dagster import DagsterInstance

from assets.runs.runner import regrade_pair
from ragpipe.grading.rules import DEFAULT_RULES
from ragpipe.review.data import ReviewError, load_review
from ragpipe.review.render import write_report
from tests.browser import chromium, new_page
from tests.conftest import warehouse_resources


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory, demo_warehouse_once) -> dict:
    """The demo pair graded (the session's, copied), then re-graded without the decline phrase "could not find"
    (a real delta)."""
    folder = tmp_path_factory.mktemp("review") / "warehouse"
    shutil.copytree(demo_warehouse_once, folder)
    instance = DagsterInstance.ephemeral()
    candidate = folder / "rules-candidate.yaml"
    candidate.write_text(DEFAULT_RULES.read_text().replace("    - could not find\n", ""))
    result = regrade_pair(
        "demo", "default", instance=instance, resources=warehouse_resources(folder, rules_path=candidate)
    )
    assert result.success
    (event,) = [e for e in result.get_asset_materialization_events() if e.asset_key.to_user_string() == "review_report"]
    with duckdb.connect(str(folder / "ragpipe.duckdb"), read_only=True) as conn:
        data = load_review(conn, "demo", "default", seed=3, audit_size=5)
        grades = conn.execute("SELECT * FROM grades WHERE corpus = 'demo' AND config = 'default'").df()
    report = write_report(data, folder / "review.html")
    return {"folder": folder, "data": data, "grades": grades, "report": report, "asset": event.materialization.metadata}


def test_the_asset_links_the_report_it_wrote_after_scorecards(reviewed):
    path = Path(reviewed["asset"]["report"].value)
    assert path.is_file() and path.read_text().count('<article class="row"') == len(reviewed["grades"])
    assert reviewed["asset"]["flips"].value == len(reviewed["data"].flips) > 0


def test_report_data_explains_every_verdict(reviewed):
    data, grades = reviewed["data"], reviewed["grades"]
    assert len(data.rows) == len(grades) and data.delta_from and data.delta_from != data.grader_version
    assert all(
        f["old_rule"].endswith(".declined") and f["old_declined"] for f in data.flips
    )  # the removed phrase decided them
    assert all(r["verdict"] == "correct" for r in data.rows if r["answer_id"] in data.audit_sample)
    assert len(data.audit_sample) == 5 and data.audit_sample == load_review_again(reviewed).audit_sample  # seeded
    html = reviewed["report"].read_text()
    assert not any(
        ref in html for ref in ('src="http', "href='http", 'href="http', "url(http", "@import", "<link")
    )  # fetches nothing


def test_each_answer_shows_its_questions_needles_and_the_pages_it_cited(reviewed):
    """The needles block is rendered once per question and shown under every answer to it; cited pages are
    looked up for the chunks the answers cite, and only those."""
    data, html = reviewed["data"], reviewed["report"].read_text()
    with duckdb.connect(str(reviewed["folder"] / "ragpipe.duckdb"), read_only=True) as conn:
        needles = conn.execute(
            "SELECT question_id, count(*) FILTER (status = 'kept'), count(*) FILTER (status = 'rejected') "
            "FROM needles WHERE corpus = 'demo' GROUP BY ALL"
        ).fetchall()
        cited = conn.execute(
            "SELECT a.answer_id, c.doc_id, c.page_start, c.page_end FROM answers a, unnest(a.cited_chunks) AS u(chunk) "
            "JOIN chunks c ON c.chunk_id = u.chunk AND c.corpus = a.corpus AND c.config = a.config "
            "WHERE a.corpus = 'demo' AND a.config = 'default'"
        ).fetchall()
    counts = {q: (kept, rejected) for q, kept, rejected in needles}
    articles = html.split('<article class="row" id="a-')[1:]
    assert len(articles) == len(data.rows) and any(kept for kept, _ in counts.values())
    for row, article in zip(data.rows, articles):
        kept, rejected = counts.get(row["question_id"], (0, 0))
        said = f"needles: {kept} kept, {rejected} rejected" if kept or rejected else "<details>"
        assert (said in article) == bool(kept or rejected), row["question_id"]
    pages: dict[str, list] = {}
    for answer_id, doc, first, last in cited:
        pages.setdefault(answer_id, []).append((doc, int(first), int(last)))
    assert pages and all(sorted(r["cited_pages"]) == sorted(pages.get(r["answer_id"], [])) for r in data.rows)


def test_the_flips_shown_are_the_ones_the_grade_delta_asset_stored(reviewed, tmp_path):
    """The latest grading's flips are read from `grade_deltas`, not worked out again: the same flips as
    `event_delta` computes, and an edit to the stored rows shows in the report's data."""
    from ragpipe.history.delta import event_delta

    data = reviewed["data"]
    with duckdb.connect(str(reviewed["folder"] / "ragpipe.duckdb"), read_only=True) as conn:
        computed = event_delta(conn, "demo", "default")
    assert data.flips == computed["flips"] and data.delta_from == computed["from_version"]
    copy = tmp_path / "ragpipe.duckdb"
    shutil.copy(reviewed["folder"] / "ragpipe.duckdb", copy)
    with duckdb.connect(str(copy)) as conn:
        conn.execute("UPDATE grade_deltas SET new_rule = 'edited.in.the.table' WHERE corpus = 'demo'")
        again = load_review(conn, "demo", "default", seed=3, audit_size=5)
    assert [f["new_rule"] for f in again.flips] == ["edited.in.the.table"] * len(data.flips)


def test_the_leaderboard_shown_is_the_one_the_scorecards_asset_stored(reviewed, tmp_path):
    """The review ranks the pair's systems from `leaderboards` (stored with the scorecards), not by testing
    every pair of systems again: the same rows as computing it, and an edit to the table shows."""
    from ragpipe.review.data import _stored_leaderboard
    from ragpipe.scoring.leaderboard import leaderboard

    grades, version = reviewed["grades"], reviewed["data"].grader_version
    computed = leaderboard(dict(tuple(grades.groupby("answer_set", sort=True))))
    with duckdb.connect(str(reviewed["folder"] / "ragpipe.duckdb"), read_only=True) as conn:
        stored = _stored_leaderboard(conn, "demo", "default", version)
    assert stored == computed and len(stored) >= 1
    copy = tmp_path / "ragpipe.duckdb"
    shutil.copy(reviewed["folder"] / "ragpipe.duckdb", copy)
    with duckdb.connect(str(copy)) as conn:
        conn.execute("UPDATE leaderboards SET vs_best = 'edited' WHERE corpus = 'demo'")
        assert {r["vs_best"] for r in _stored_leaderboard(conn, "demo", "default", version)} == {"edited"}


def load_review_again(reviewed):
    with duckdb.connect(str(reviewed["folder"] / "ragpipe.duckdb"), read_only=True) as conn:
        return load_review(conn, "demo", "default", seed=3, audit_size=5)


def test_unknown_answer_set_or_version_names_what_exists(reviewed):
    with duckdb.connect(str(reviewed["folder"] / "ragpipe.duckdb"), read_only=True) as conn:
        with pytest.raises(ReviewError, match="it has: extractive"):
            load_review(conn, "demo", "default", answer_set="nope")
        with pytest.raises(ReviewError, match="versions that did: g"):
            load_review(conn, "demo", "default", grader="g0-unknown")


@pytest.fixture(scope="module")
def page(reviewed, tmp_path_factory):
    with chromium() as browser:
        tab = new_page(browser, viewport={"width": 1200, "height": 1000}, accept_downloads=True)
        errors: list[str] = []
        tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        tab.on("pageerror", lambda e: errors.append(str(e)))
        tab.goto(reviewed["report"].as_uri())
        yield tab, errors


def _visible(tab) -> int:
    return tab.locator("#answers article.row:visible").count()


def test_page_loads_without_errors_and_filters_change_the_rows(page, reviewed, tmp_path_factory):
    tab, errors = page
    grades = reviewed["grades"]
    assert _visible(tab) == len(grades)
    tab.select_option("#f-verdict", "wrong")
    assert _visible(tab) == int((grades["verdict"] == "wrong").sum()) > 0
    tab.select_option("#f-verdict", "")
    tab.check("#f-money")
    assert _visible(tab) == int(grades["money_question"].sum())
    tab.uncheck("#f-money")
    tab.select_option("#f-declined", "yes")
    assert _visible(tab) == int(grades["declined"].sum())
    tab.select_option("#f-declined", "")
    failure = grades["failure"].dropna().iloc[0]
    tab.select_option("#f-failure", failure)
    assert _visible(tab) == int((grades["failure"] == failure).sum())
    assert tab.locator("#visible-count").inner_text() == str(_visible(tab))
    tab.select_option("#f-failure", "")
    shot = tmp_path_factory.mktemp("screens") / "review.png"
    tab.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    assert errors == []


_HIT_OFFSETS = """
(row) => {
  const spans = []; let at = 0;
  for (const node of row.querySelector('.answer').childNodes) {
    const len = node.textContent.length;
    if (node.nodeType === 1 && node.classList.contains('hit')) spans.push([at, at + len]);
    at += len;
  }
  return spans;
}
"""


def _merged(spans):
    out = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def test_highlights_sit_on_the_matched_text(page, reviewed):
    tab, errors = page
    checked = 0
    for g in reviewed["grades"].itertuples():
        matched = json.loads(g.matched)
        if not matched:
            continue
        row = tab.locator(f"#a-{g.answer_id}")
        shown = row.evaluate(_HIT_OFFSETS)
        assert _merged(shown) == _merged([[m["start"], m["end"]] for m in matched]), g.question_id
        text = row.locator(".answer").inner_text()
        for m in (m for m in matched if m["kind"] == "decline"):  # a decline span records the phrase it found
            assert text[m["start"] : m["end"]].lower() == m["needle"], g.question_id
        checked += 1
    assert checked >= 20
    money = tab.locator(
        "#a-" + reviewed["grades"].set_index("question_id").loc["bank-overdraft-fee", "answer_id"] + " .money-key"
    )
    assert money.inner_text() == "$20.00"
    assert errors == []


def test_pass_audit_exports_disagreements_as_jsonl(page, reviewed, tmp_path_factory):
    tab, errors = page
    tab.click('nav button[data-tab="audit"]')
    cards = tab.locator("article.audit")
    assert cards.count() == 5
    first = cards.nth(0)
    first.locator(".disagree").check()
    first.locator(".note").fill("the figure is the prior year's")
    with tab.expect_download() as download:
        tab.click("#export")
    path = tmp_path_factory.mktemp("audit") / "disagreements.jsonl"
    download.value.save_as(path)
    (line,) = path.read_text().splitlines()
    row = json.loads(line)
    assert row["answer_id"] == reviewed["data"].audit_sample[0] and row["disagree"] is True
    assert row["note"] == "the figure is the prior year's" and row["verdict"] == "correct"
    assert row["grader_version"] == reviewed["data"].grader_version
    assert errors == []


def test_delta_view_lists_only_flipped_answers(page, reviewed):
    tab, errors = page
    tab.click('nav button[data-tab="delta"]')
    rows = tab.locator("#flips tr")
    assert rows.count() - 1 == len(reviewed["data"].flips)  # a header, then one row per flip
    assert ".declined" in rows.nth(1).inner_text()
    assert errors == []


def _marks(runs, text):
    return [set(r.marks) for r in runs if r.text == text]


def test_money_figures_are_marked_key_wrong_or_mentioned(rules):

    answer = (
        "Total current assets are $19,815 million and total current liabilities are $13,997 million. "
        "Therefore, the net working capital is $5,818 million."
    )
    question = "What is the FY2021 net working capital? Answer in USD millions."
    runs = _graded_marks(rules, question, "$5818.00", answer)
    assert {"money-key"} <= _marks(runs, "$5,818 million")[0]  # the key by value
    assert {"money-mentioned"} <= _marks(runs, "$19,815 million")[0]  # an input on the way to the key
    wrong = "The net working capital is $6,818 million."
    assert {"money-wrong"} <= _marks(_graded_marks(rules, question, "$5818.00", wrong), "$6,818 million")[0]
    quoted = (
        "This is indicated in Source 3, where the ending balance is listed as $42.99, but the amount due is $26.99."
    )
    runs = _graded_marks(rules, "What is the amount due?", "$26.99", quoted)
    assert {"src", "money-mentioned"} <= _marks(runs, "$42.99")[0]  # the source's voice: mentioned, not asserted
    assert {"money-key"} <= _marks(runs, "$26.99")[0] and "src" not in _marks(runs, "$26.99")[0]


def _graded_marks(rules, question: str, key: str, answer: str):
    """The answer's marks as the review shows them: read from its grade's stored spans, not re-derived."""
    from ragpipe.corpus.questions import Question
    from ragpipe.grading.grader import grade
    from ragpipe.review.annotate import annotate

    graded = grade(Question(id="q", text=question, kind="answerable", money_key=key), answer, [], rules)
    return annotate(answer, graded.columns()["matched"])


def test_the_plots_follow_the_answer_set_selected(page, reviewed, tmp_path_factory):
    """With two answer sets, the page shows the selected set's own latency and agreement plots."""
    import dataclasses

    from ragpipe.review.render import render_report

    data = reviewed["data"]
    other = [
        {**row, "answer_set": "other", "answer_id": "o-" + row["answer_id"], "latency_ms": 5000.0 + i, "label": None}
        for i, row in enumerate(data.rows)
    ]
    two = dataclasses.replace(data, rows=[*data.rows, *other], audit_sample=[])
    html = tmp_path_factory.mktemp("two-sets") / "review.html"
    html.write_text(render_report(two))
    tab, _ = page  # the module's browser: one Playwright per process
    tab.goto(html.as_uri())
    try:
        tab.click('nav button[data-tab="overview"]')
        shown = tab.locator(".plot-set:visible")
        assert shown.count() == 1 and shown.get_attribute("data-plot-set") == ""  # every set, before a choice
        tab.click('nav button[data-tab="answers"]')
        tab.select_option("#f-set", "other")
        tab.click('nav button[data-tab="overview"]')
        shown = tab.locator(".plot-set:visible")
        assert shown.count() == 1 and shown.get_attribute("data-plot-set") == "other"
        assert "Latency (other)" in shown.inner_text() and "No labelled answers in other" in shown.inner_text()
        tab.click('nav button[data-tab="answers"]')
        tab.select_option("#f-set", "extractive")
        tab.click('nav button[data-tab="overview"]')
        assert tab.locator(".plot-set:visible").get_attribute("data-plot-set") == "extractive"
    finally:
        tab.goto(reviewed["report"].as_uri())  # the page as the module's other tests expect it


def test_what_the_grader_read_each_question_as_asking_is_stored_and_shown(reviewed):
    """The rule verdicts' stage stores each graded question's reading (`question_readings`), the same as
    reading the stored questions again under the rules it graded by; the report shows it beside the gold."""
    from ragpipe.grading.question_reading import question_readings
    from ragpipe.grading.rules import load_rules
    from ragpipe.warehouse.nulls import records

    candidate = load_rules(reviewed["folder"] / "rules-candidate.yaml")
    with duckdb.connect(str(reviewed["folder"] / "ragpipe.duckdb"), read_only=True) as conn:
        stored = conn.execute(
            "SELECT * EXCLUDE (corpus, config) FROM question_readings WHERE corpus = 'demo' AND config = 'default' "
            "ORDER BY question_id, kind"
        ).df()
        questions = conn.execute("SELECT * FROM questions WHERE corpus = 'demo'").df()
        verdicts = conn.execute("SELECT question_id, kind FROM rule_verdicts WHERE config = 'default'").df()
    again = question_readings(questions, verdicts, candidate)
    assert set(stored["rules_version"]) == {candidate.version}
    assert records(stored) == records(again[stored.columns])  # nulls as None, whatever each side's dtype
    owed = stored[stored["question_id"] == "tax-owed"].iloc[0]
    assert (owed["money_key"], owed["precision"], bool(owed["money_question"])) == ("$44,322", 0, True)
    html = reviewed["report"].read_text()
    assert "read as asking: the measure" in html and "a money key, $44,322 at 0 decimals" in html
