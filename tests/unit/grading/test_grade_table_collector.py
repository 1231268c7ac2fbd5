"""Grading pauses Python's cyclic garbage collector and gives it back as it found it.

The pause is safe only while grading leaves no reference cycles behind (reference counting frees
everything): the last test holds that premise, so a change that starts making cycles fails here
instead of slowly growing a long regrade's memory."""

import gc
import subprocess
import sys

import pandas as pd
import pytest

from ragpipe.corpus.questions import Question, questions_frame
from ragpipe.grading.grade_table import grade_answers
from ragpipe.grading.rules import load_rules
from tests.conftest import ROOT

QUESTIONS = [
    Question(id="bill", text="What is the amount due?", kind="answerable", gold_answer="$26.99", money_key="$26.99"),
    Question(id="pet", text="What is the pet deposit?", kind="negative"),
    Question(id="who", text="Who wrote The Hobbit?", kind="answerable", gold_answer="J. R. R. Tolkien"),
]
ANSWERS = [
    ("bill", "The ending balance is $42.99, but the amount due is $26.99."),
    ("bill", "I could not find the amount due in the document."),
    ("pet", "The lease does not mention a pet deposit."),
    ("pet", "The pet deposit is $300, according to page 2."),
    ("who", "It was written by Tolkien, J.R.R., in 1937."),
    ("who", "It was either C. S. Lewis or Tolkien."),
]


def _answers(rows=ANSWERS) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"corpus": "c", "config": "k", "answer_set": "s", "question_id": qid, "answer_id": f"a{i}",
             "answer": text, "citations": [], "error": None}
            for i, (qid, text) in enumerate(rows)
        ]
    )  # fmt: skip


def _inputs(answers: pd.DataFrame) -> tuple:
    needles = pd.DataFrame(columns=["question_id", "needle", "kind", "source", "status"])
    return answers, questions_frame("c", QUESTIONS), needles, load_rules()


def _grade(answers: pd.DataFrame, progress=None) -> pd.DataFrame:
    return grade_answers(*_inputs(answers), progress=progress)


@pytest.fixture
def collector_restored():
    was_on = gc.isenabled()
    yield
    (gc.enable if was_on else gc.disable)()


@pytest.mark.parametrize("on", [True, False])
def test_the_collector_is_paused_while_grading_and_left_as_found(collector_restored, on):
    (gc.enable if on else gc.disable)()
    seen = []
    graded = _grade(_answers(), progress=lambda done, total: seen.append(gc.isenabled()))
    assert len(graded) == len(ANSWERS) and seen and not any(seen)
    assert gc.isenabled() is on


def test_the_collector_comes_back_when_grading_fails(collector_restored):
    gc.enable()
    with pytest.raises(KeyError, match="unknown question"):
        _grade(_answers([*ANSWERS, ("nowhere", "An answer to a question nobody asked.")]))
    assert gc.isenabled()


# in a process of its own: in a test worker, threads other tests left behind (a server, a monitor) make
# garbage of their own meanwhile, and the count would be theirs
_COUNT_CYCLES = """
import gc
from ragpipe.grading.grade_table import grade_answers
from tests.unit.grading.test_grade_table_collector import _answers, _grade, _inputs
inputs = _inputs(_answers())
_grade(_answers())  # once before, so what a first grading caches is not counted as garbage
gc.collect()
gc.disable()
graded = grade_answers(*inputs)
print(gc.collect(), len(graded))
"""


def test_grading_leaves_no_cycles_for_the_collector():
    done = subprocess.run(
        [sys.executable, "-c", _COUNT_CYCLES], cwd=ROOT, capture_output=True, text=True, timeout=300, check=True
    )
    cycles, graded = map(int, done.stdout.split())
    assert graded == len(ANSWERS)
    assert cycles == 0, "grading made reference cycles: pausing the collector would grow memory"
