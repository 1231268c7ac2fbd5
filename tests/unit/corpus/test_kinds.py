"""One owner of "is declining right for this kind": the decline check, the judge's verdicts, people's
labels (calibration) and the labelling page all read it from `ragpipe/corpus/kinds.py`."""

from typing import get_args

from ragpipe.corpus.kinds import KINDS, declining_is_right
from ragpipe.corpus.questions import Kind, Question
from ragpipe.grader_agreement.agreement import REFUSAL
from ragpipe.grading.grader import grade
from ragpipe.grading.rules import load_rules
from ragpipe.judge.apply import _decided
from ragpipe.review.label_page import Item, _agrees
from ragpipe.scoring.calibration import people_correct


def test_the_kinds_are_one_list():
    assert get_args(Kind) == KINDS == ("answerable", "negative", "ambiguous")


def test_every_reader_of_a_decline_agrees_with_declining_is_right():
    rules = load_rules()
    for kind in KINDS:
        question = Question(id="q", text="What is the pet deposit?", gold_answer="$300", kind=kind)
        graded = grade(question, "I could not find the pet deposit in the documents.", [], rules)
        assert graded.declined
        assert (graded.verdict == "correct") == declining_is_right(kind), kind  # the decline check
        assert (_decided(kind, "declined")["verdict"] == "correct") == declining_is_right(kind)  # the judge
        assert bool(people_correct([REFUSAL], [kind])[0]) == declining_is_right(kind)  # people's labels
        item = Item("a", "q", question.text, "$300", [], verdict="correct", rule="r", input_sha="s", kind=kind)
        assert _agrees("refusal", item) == declining_is_right(kind)  # the labelling page
