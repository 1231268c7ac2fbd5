"""Needles: kept only when the gold text has them and the question does not."""

import pandas as pd

from ragpipe.corpus.needle_mining import COMPUTED, FIGURE_KINDS, STATED_KINDS, gold_texts, mine_needles, without_notes
from ragpipe.text.figures import find_figures
from ragpipe.text.matching import find_needle, same_figure_loosely


def _magnitude_match(needle: str, text: str) -> bool:
    """A kept figure is in the gold text as needle mining defines it: by magnitude at the
    gold's precision ((1,577) prints an outflow of 1,577), or as the bare number of a
    gold written with a scale word ($2,018mn in a table in millions)."""
    (fig,) = find_figures(needle)
    return any(same_figure_loosely(fig, f) for f in find_figures(text))


def assert_needle_invariants(frame: pd.DataFrame, questions, pages: pd.DataFrame) -> None:
    """No kept needle occurs in its question; every kept needle occurs in its gold text, where recorded,
    except a computed figure, which is in the gold answer and nowhere in the gold text, and what the gold
    answer says of the measure (there is none, it does not apply, it is flat)."""
    by_id = {q.id: q for q in questions}
    kept = frame[frame["status"] == "kept"]
    assert len(kept) > 0
    for row in kept.itertuples():
        q = by_id[row.question_id]
        kind = "term" if row.kind == "term" else "phrase"
        if row.kind in FIGURE_KINDS:
            assert not any(abs(f.value) == abs(find_figures(row.needle)[0].value) for f in find_figures(q.text)), row
        elif row.kind != "option":
            assert find_needle(row.needle, q.text, find_figures(q.text), kind=kind) is None, row
        if row.kind in ("absence", *STATED_KINDS):  # what the gold answer says (none; n/a; flat): the answer, whole
            assert row.source == "gold_answer" and row.needle == without_notes(q.gold_answer.strip()).rstrip("."), row
            continue
        if row.source == "gold_answer":  # the option a choice question's gold answer picks: named in the question
            assert row.kind == "option" and find_needle(row.needle, q.gold_answer, [], kind="term"), row
            continue
        if row.source == COMPUTED:  # a figure of the gold answer that the gold text does not print
            assert row.kind in FIGURE_KINDS and _magnitude_match(row.needle, q.gold_answer), row
            assert not any(_magnitude_match(row.needle, u.text) for u in gold_texts(q, pages)), row
            continue
        units = [
            u for u in gold_texts(q, pages) if u.doc_id == row.doc_id and u.page == row.page and u.source == row.source
        ]
        assert units, row
        text = units[0].text[row.char_offset :]
        if row.kind in FIGURE_KINDS:
            assert _magnitude_match(row.needle, text), row
        else:
            assert find_needle(row.needle, text, [], kind=kind) == (
                0,
                find_needle(row.needle, text, [], kind=kind)[1],
            ), row


def test_demo_needle_invariants(demo_ingested, demo_questions):
    frame = mine_needles("demo", demo_questions, demo_ingested.pages)
    assert_needle_invariants(frame, demo_questions, demo_ingested.pages)
    assert (frame["status"] == "kept").sum() >= 20


def test_rejections_carry_reasons(demo_ingested, demo_questions):
    frame = mine_needles("demo", demo_questions, demo_ingested.pages)
    reasons = dict(zip(zip(frame["question_id"], frame["needle"]), frame["reason"]))
    assert reasons[("paystub-401k", "401")] == "present in question"
    assert (
        reasons[("amb-rent-plus-electric", "$2,268.46")] == "computed: in the gold answer, not in the gold text"
    )  # not printed
    sources = dict(zip(zip(frame["question_id"], frame["needle"]), frame["source"]))
    assert sources[("amb-rent-plus-electric", "$2,268.46")] == COMPUTED
    assert reasons[("amb-rent-plus-electric", "$2,150")] == "found in gold text"
    assert reasons[("lease-landlord", "Birchwood Properties LLC")] == "found in gold text"
    assert reasons[("neg-pet-insurance", "pet insurance plan")] == "present in question"
    assert reasons[("neg-roth-ira", "retirement account statement")] == "absent from gold text"


def test_gold_text_is_the_golden_pages(demo_ingested, demo_questions):
    flood = next(q for q in demo_questions if q.id == "insurance-flood")
    assert {u.page for u in gold_texts(flood, demo_ingested.pages)} == {2}
