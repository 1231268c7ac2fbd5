"""`ragpipe audit --add-decline PHRASE` on a warehouse nobody labelled: the warehouse half (needles, keys, gold
answers, answers graded correct, what would flip) runs, and the labels half says what it would need."""

from __future__ import annotations

import json

from tests.commands import invoke


def test_a_proposed_phrase_is_checked_against_the_warehouse_with_no_labels(demo_warehouse_once):
    shown = invoke("audit", "--add-decline", "not covered", warehouse=demo_warehouse_once)
    assert shown.exit_code == 0, shown.output
    said = " ".join(shown.output.split())
    assert "no answers people judged, so the phrases were checked against the warehouse alone" in said
    assert "collision(s) in the warehouse" in said
    as_json = invoke("audit", "--add-decline", "not covered", "--json", warehouse=demo_warehouse_once)
    assert as_json.exit_code == 0, as_json.output
    report = json.loads(as_json.stdout)
    assert report["label_collisions"] is None and report["sets"] == []
    assert "collisions" in report and "delta" in report


def test_an_audit_with_nothing_to_check_still_says_what_it_needs(demo_warehouse_once):
    nothing = invoke("audit", warehouse=demo_warehouse_once)
    assert nothing.exit_code == 1 and "no answers people judged: give --labels FILE" in " ".join(nothing.output.split())
