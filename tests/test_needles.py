"""Needles: kept only when the gold text has them and the question does not."""

from ragpipe.figures import find_figures, parse_figure
from ragpipe.needles import gold_pages, mine_needles


def test_kept_needles_are_in_gold_text_and_not_in_question(demo_ingested, demo_questions):
    frame = mine_needles("demo", demo_questions, demo_ingested.pages)
    by_id = {q.id: q for q in demo_questions}
    kept = frame[frame["status"] == "kept"]
    assert len(kept) >= 20
    for row in kept.itertuples():
        needle = parse_figure(row.needle)
        question = by_id[row.question_id]
        assert not any(needle.matches(f) for f in find_figures(question.text)), row
        page = demo_ingested.pages
        text = page[(page["doc_id"] == row.doc_id) & (page["page"] == row.page)]["text"].iloc[0]
        assert any(needle.matches(f) for f in find_figures(text[row.char_offset :]))
        assert row.doc_id in question.golden_docs


def test_rejections_carry_reasons(demo_ingested, demo_questions):
    frame = mine_needles("demo", demo_questions, demo_ingested.pages)
    reasons = dict(zip(zip(frame["question_id"], frame["needle"]), frame["reason"]))
    assert reasons[("paystub-401k", "401")] == "present in question"
    assert reasons[("amb-rent-plus-electric", "$2,268.46")] == "absent from gold text"  # computed, not printed
    assert reasons[("amb-rent-plus-electric", "$2,150")] == "found in gold text"


def test_gold_text_is_the_golden_pages(demo_ingested, demo_questions):
    flood = next(q for q in demo_questions if q.id == "insurance-flood")
    assert set(gold_pages(flood, demo_ingested.pages)["page"]) == {2}
