"""A judge's track record: a cell with labels is the judge's only where people agree with it more often
than with the rules; its lost cells are held like `keep:`, read when the judge is loaded, and part of the
grader version."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragpipe.judge import judged_rules
from ragpipe.judge.config import JudgeError, identity_of, load_judges
from ragpipe.judge.track_record import TrackCell, held_cells, read_record, record_path, recorded, summed

KINDS = ("answerable", "negative", "ambiguous")
RULES = ("needles.mined.none", "ambiguous.declined", "answerable.declined")


def cell(kind: str, rule: str, n: int, rules_agree: int, judge_agree: int) -> TrackCell:
    return TrackCell(kind=kind, rule=rule, n=n, rules_agree=rules_agree, judge_agree=judge_agree)


def test_a_tie_keeps_the_rules_and_a_win_is_the_judges():
    cells = [cell("ambiguous", "ambiguous.declined", 10, 6, 6), cell("answerable", "needles.mined.none", 10, 3, 7)]
    assert [k.written() for k in held_cells(cells)] == ["ambiguous:ambiguous.declined"]


def test_cells_of_two_sets_are_summed_before_they_are_judged():
    # the judge loses one set's cell by 1 and wins the other's by 3: summed, it wins
    cells = [cell("negative", "answerable.declined", 5, 4, 3), cell("negative", "answerable.declined", 9, 2, 5)]
    assert summed(cells) == [cell("negative", "answerable.declined", 14, 6, 8)] and held_cells(cells) == ()


labelled = st.lists(
    st.tuples(st.sampled_from(KINDS), st.sampled_from(RULES), st.booleans(), st.booleans()), max_size=60
)


@settings(max_examples=400, deadline=None)
@given(labelled)
def test_holding_the_lost_cells_never_lowers_agreement_on_the_answers_measured(rows):
    """Per labelled answer: (kind, rule, do people agree with the rules, with the judge). Where the held cells
    are left to the rules, agreement is at least the rules' alone and the judge's alone, in every cell."""
    cells = summed(cell(k, r, 1, int(a), int(b)) for k, r, a, b in rows)
    held = {(h.kind.value, h.rule) for h in held_cells(cells)}
    graded = [(k, r, a if (k, r) in held else b) for k, r, a, b in rows]
    for c in cells:
        mine = [g for k, r, g in graded if (k, r) == (c.kind, c.rule)]
        assert sum(mine) >= max(c.rules_agree, c.judge_agree)
    assert sum(g for *_, g in graded) >= max(sum(a for *_, a, _ in rows), sum(b for *_, b in rows))


def _judges(tmp_path, model: str = "judge-model"):
    path = tmp_path / "judges.yaml"
    path.write_text(json.dumps({"judges": {"scripted": {"base_url": "http://127.0.0.1:9/v1", "model": model}}}))
    return path


def test_loading_a_judge_reads_its_record_and_the_held_cells_enter_the_grader_version(tmp_path, rules):
    path = _judges(tmp_path)
    judge = load_judges(path)["scripted"]
    before = judged_rules(rules, identity_of(judge), judge.keeps).version
    assert judge.keeps == ()
    ident = identity_of(judge)
    cells = [cell("ambiguous", "ambiguous.declined", 117, 94, 42), cell("ambiguous", "needles.ungradable", 5, 0, 4)]
    recorded(record_path(path, ident.id), ident.name, ident.id, "xstest-dev.jsonl", 900, "2026-12-06", cells)
    judge = load_judges(path)["scripted"]
    assert [k.written() for k in judge.keeps] == ["ambiguous:ambiguous.declined"] and judge.keep == []
    after = judged_rules(rules, identity_of(judge), judge.keeps).version
    assert after != before and "+k-" in after
    # another model is another judge: the record is not its own
    assert load_judges(_judges(tmp_path, model="another"))["scripted"].keeps == ()


def test_measuring_a_set_again_replaces_its_cells_and_keeps_the_others(tmp_path):
    path = tmp_path / "judge-records" / "j-x.json"
    recorded(path, "j", "j-x", "a.jsonl", 4, "2026-12-01", [cell("negative", "answerable.declined", 4, 4, 0)])
    recorded(path, "j", "j-x", "b.jsonl", 3, "2026-12-01", [cell("answerable", "needles.mined.none", 3, 0, 3)])
    recorded(path, "j", "j-x", "a.jsonl", 5, "2026-12-02", [cell("negative", "answerable.declined", 5, 1, 5)])
    record = read_record(path)
    assert sorted(record.sets) == ["a.jsonl", "b.jsonl"] and record.sets["a.jsonl"].labels == 5
    assert record.held() == ()


def test_a_record_that_is_not_one_is_refused_naming_the_file(tmp_path):
    path = _judges(tmp_path)
    ident = identity_of(load_judges(path)["scripted"])
    broken = record_path(path, ident.id)
    broken.parent.mkdir()
    broken.write_text('{"judge": "scripted"')
    with pytest.raises(JudgeError, match=str(broken)):
        load_judges(path)
