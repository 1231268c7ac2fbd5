"""An answer's size is capped where it is stored (and the row says so); the review's markup is one sweep."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from ragpipe.answering.answer_row import MAX_ANSWER_CHARS, MAX_NOTE_CHARS, capped_note
from ragpipe.answering.engines import make_engine
from ragpipe.answering.run import answer_questions
from ragpipe.corpus.questions import Question
from ragpipe.grading.grader import grade
from ragpipe.review.annotate import Run, _runs, annotate


def test_a_huge_answer_is_stored_cut_and_says_how_long_it_was(tmp_path, context, demo_questions):
    q = demo_questions[0]
    huge = "The rent is $2,150. " * 50_000  # 1,000,000 characters
    path = tmp_path / "huge.jsonl"
    path.write_text(json.dumps({"question_id": q.id, "answer": huge}) + "\n")
    row = answer_questions(make_engine("import", {"path": str(path)}), [q], context, "demo", "t", "big", {}).iloc[0]
    assert len(row["answer"]) == MAX_ANSWER_CHARS and huge.startswith(row["answer"])
    assert row["truncated_from"] == len(huge)
    small = answer_questions(make_engine("import", {"path": str(path)}), [q], context, "demo", "t", "big", {})
    assert small.iloc[0]["truncated_from"] == len(huge)  # the same answer asked again: the same row


def test_a_long_error_is_cut_saying_so():
    note = capped_note("x" * (MAX_NOTE_CHARS + 5))
    assert note.endswith(f"[cut: {MAX_NOTE_CHARS + 5:,} characters in all]") and len(note) < MAX_NOTE_CHARS + 100


def _brute_force(answer: str, spans) -> list[Run]:
    """The markup as it was computed before (every span tested at every cut): the reference."""
    cuts = sorted({0, len(answer), *(s for s, *_ in spans), *(e for _, e, *_ in spans)})
    runs: list[Run] = []
    for start, end in zip(cuts, cuts[1:]):
        covering = [(kind, note) for s, e, kind, note in spans if s <= start and end <= e]
        marks = tuple(dict.fromkeys(m for kind, _ in covering for m in kind.split()))
        notes = tuple(dict.fromkeys(note for _, note in covering))
        if runs and (runs[-1].marks, runs[-1].notes) == (marks, notes):
            runs[-1] = Run(runs[-1].text + answer[start:end], marks, notes)
        else:
            runs.append(Run(answer[start:end], marks, notes))
    return runs


@given(
    st.text(min_size=1, max_size=60),
    st.lists(
        st.tuples(st.integers(0, 60), st.integers(0, 60), st.sampled_from(["src", "hit hit-x", "money-key"])),
        max_size=8,
    ),
)
def test_the_sweep_marks_exactly_what_testing_every_span_did(answer, raw_spans):
    spans = [(min(s, e), max(s, e), kind, f"{kind}@{s}") for s, e, kind in raw_spans]
    spans = [(s, min(e, len(answer)), k, n) for s, e, k, n in spans if s < min(e, len(answer))]
    assert _runs(answer, spans) == _brute_force(answer, spans)


def test_a_long_answer_with_many_marks_is_marked_whole(rules):
    answer = "Rent was $2,150 and the deposit $500 (the lease says $2,150). " * 2_000
    unbounded = rules.model_copy(update={"answers": rules.answers.model_copy(update={"max_chars": 10**9})})
    question = Question(id="q", text="What is the monthly rent?", kind="answerable", money_key="$2,150")
    runs = annotate(answer, grade(question, answer, [], unbounded).columns()["matched"])
    assert "".join(r.text for r in runs) == answer
    assert sum("money-key" in r.marks for r in runs) >= 2_000
