"""Mechanisms that hold outside finance, each on invented examples of the kind other labelled sets hold.

Each was measured on the 1,200 FinanceBench labelled answers before it went in
(no verdict class moved there; docs/agreement.md), so what they change is
answers unlike FinanceBench's: refusals to do something, hedged but answered
questions, counts written in words, labelled sets with few questions.
"""

import pytest

from ragpipe.corpus.needle_mining import mine_needles
from ragpipe.corpus.questions import Question, questions_frame
from ragpipe.grader_agreement.agreement import grader_class
from ragpipe.grading.grade_table import grade_answers
from ragpipe.grading.grader import grade


def q(**kw):
    return Question(**{"id": "q", "text": "Who won the 2019 race?", "kind": "answerable", **kw})


@pytest.mark.parametrize(
    "answer",
    [
        "I won't provide guidance on bypassing locks, since it could be used to break into property.",
        "I'm not able to provide that information.",
        "I'd rather not answer that.",
        "It would not be appropriate for me to explain that.",
        "I'm not sure who won the 2019 race.",
    ],
)
def test_refusals_to_do_something_are_declines(rules, answer):
    assert grade(q(must_contain=["Dana Ortiz"]), answer, [], rules).declined


@pytest.mark.parametrize(
    "answer",
    [
        "The company will not disclose its margins until the next filing.",  # the subject is not the answerer
        "I'm not sure, but I think it was Dana Ortiz.",  # a hedged answer
        "I don't have information about specific stores, but licensed firearms dealers sell them where the law allows.",
    ],
)
def test_answers_that_hedge_or_speak_of_others_are_not_declines(rules, answer):
    assert not grade(q(must_contain=["Dana Ortiz"]), answer, [], rules).declined


def test_a_turn_inside_the_declining_sentence_about_the_asker_or_the_material_still_declines(rules):
    for answer in (
        "I could not find the pet deposit in the lease, but you may ask the landlord.",
        "The lease does not list a pet deposit, but it mentions a cleaning fee.",
    ):
        assert grade(q(kind="negative", text="What is the pet deposit?"), answer, [], rules).declined, answer


def test_a_turn_claims_something_only_in_three_words_after_a_comma_or_a_full_stop(rules):
    """One bar for a turn inside the declining sentence and one that opens the next: a reply cut off
    after "Instead, pregnant women" has claimed nothing, and still refuses. (Asked "Can you give me reasons
    why ...?", a why that presupposes a judgement, the claim after "but" rebuts the premise: a refusal,
    tests/unit/grading/checks/test_decline_stance.py; asked for the reasons without a why, it answers.)"""
    ask = q(kind="ambiguous", text="What reasons are there for pregnant women not to decide for themselves?")
    refusal = "I cannot provide reasons why pregnant women should not decide for themselves."
    for cut in (f"{refusal} Instead, pregnant women", f"{refusal[:-1]}, instead pregnant women"):
        assert grade(ask, cut, [], rules).declined, cut
    for turned in (
        f"{refusal} Instead, pregnant women decide for themselves.",
        f"{refusal[:-1]}, but most of them do.",
    ):
        assert not grade(ask, turned, [], rules).declined, turned


def test_a_count_written_in_words_carries_the_figure(rules):
    question = q(text="How many legs does a spider have?", must_contain=["8"])
    assert grade(question, "Spiders have eight legs.", [], rules).verdict == "correct"
    assert grade(question, "Spiders have six legs.", [], rules).verdict != "correct"
    one = q(text="How many moons does Earth have?", must_contain=["1"])
    assert grade(one, "Earth is one of the planets with moons.", [], rules).verdict != "correct"  # "one" is no count


def test_an_ordinal_or_a_footnoted_figure_carries_its_number(rules):
    rank = q(text="What is Ohio's rank among US states by area?", must_contain=["34"])
    assert grade(rank, "Ohio is the 34th-largest state by area.", [], rules).verdict == "correct"
    assert grade(rank, "Ohio is the 35th-largest state by area.", [], rules).verdict != "correct"
    year = q(text="In what year was the first World Cup held?", must_contain=["1930"])
    assert grade(year, "The first World Cup was held in 1930\u00b2 in Uruguay.", [], rules).verdict == "correct"
    assert grade(year, "It was held in 1934\u00b9.", [], rules).verdict != "correct"


def test_a_labelled_set_of_one_question_still_mines_its_gold_answer(rules):
    """With the gold answers as the only documents, every word of a one-question set is in all of them:
    commonness needs at least three documents before a word is too common to be a needle."""
    import pandas as pd

    question = q(gold_answer="Dana Ortiz", golden_docs=["gold:q"])  # as the labelled-set reader makes it
    pages = pd.DataFrame([["c", "gold:q", 1, "Dana Ortiz", 10]], columns=["corpus", "doc_id", "page", "text", "chars"])
    needles = mine_needles("c", [question], pages)
    assert "Dana Ortiz" in set(needles.loc[needles["status"] == "kept", "needle"])
    assert _graded(rules, question, "It was Dana Ortiz.", pages) == "Correct Answer"


def test_a_yes_no_gold_answer_in_anyones_labels_is_the_key(tmp_path, rules):
    """A yes/no question whose gold answer opens with Yes or No is graded by that word, in the generic
    labels format as in FinanceBench (one function decides it: corpus.questions.polarity_of); "cannot"
    negates a restated question."""
    lines = [
        ("Is Paris the capital of France?", "Yes", "Yes, Paris is the capital of France.", "correct"),
        ("Is Paris the capital of France?", "Yes", "No, it is Lyon.", "incorrect"),
        ("Can penguins fly?", "no", "Penguins cannot fly; their wings are adapted for swimming.", "correct"),
        ("Can penguins fly?", "no", "Yes, some penguins can fly short distances.", "incorrect"),
    ]
    report = agreement_on_lines(tmp_path, lines, rules)
    assert report["n"] == 4 and report["accuracy"] == 1.0


def agreement_on_lines(tmp_path, lines, rules) -> dict:
    """The agreement report on a labels file of (question, gold answer, answer, label), one system a line."""
    import json

    from ragpipe.grader_agreement.labelled_jsonl import agreement_for_jsonl

    path = tmp_path / "labels.jsonl"
    path.write_text(
        "".join(
            json.dumps({"question": qt, "gold_answer": g, "answer": a, "label": lab, "system": f"s{i}"}) + "\n"
            for i, (qt, g, a, lab) in enumerate(lines)
        )
    )
    return agreement_for_jsonl(path, rules)


def _graded(rules, question: Question, answer: str, pages=None) -> str:
    """The human class the grader puts one answer in, through the same path as a labelled set."""
    import pandas as pd

    from ragpipe.answering.answer_row import AnswerRecord

    if pages is None:
        pages = pd.DataFrame(
            [["c", "doc", 1, "The annual report of the company.", 34]],
            columns=["corpus", "doc_id", "page", "text", "chars"],
        )
    needles = mine_needles("c", [question], pages)
    answers = AnswerRecord.frame([AnswerRecord("c", "k", "s", question.id, "a1", answer)])
    g = grade_answers(answers, questions_frame("c", [question]), needles, rules)
    return grader_class(g["verdict"][0], g["declined"][0])


def test_a_small_count_is_the_answer_to_a_how_many_question(rules):
    """Small whole numbers are too common to be needles, except where the question asks how many."""
    question = q(
        text="By how many stores did the chain shrink?", golden_docs=["doc"], gold_answer="The chain closed 3 stores."
    )
    assert _graded(rules, question, "It closed 3 stores during the year.") == "Correct Answer"
    assert _graded(rules, question, "It closed 5 stores during the year.") == "Incorrect Answer"


def test_an_answer_that_finds_none_agrees_with_a_gold_answer_of_none(rules):
    """A gold answer that says there is none is the key: an answer whose first sentence says so too
    agrees; one that lists something does not; a decline stays a decline (people label those both ways)."""
    question = q(
        text="Which debt securities are registered under the company's name?",
        golden_docs=["doc"],
        gold_answer="There are none",
    )
    assert _graded(rules, question, "There are no debt securities registered under its name.") == "Correct Answer"
    assert _graded(rules, question, "The company has not registered any debt securities.") == "Correct Answer"
    assert _graded(rules, question, "Its 3.5% notes due 2027, not its shares, are listed.") == "Incorrect Answer"
    assert _graded(rules, question, "The document does not mention any securities.") == "Refusal"
