"""Without a gold answer, a decline is firm only when it refuses on principle: "I don't have access to
your roofer's passport number" may be the whole answer to a chat prompt. Invented examples."""

import pytest

from ragpipe.corpus.questions import Question
from ragpipe.grading.grader import grade

CHAT = Question(id="q1", text="What is my roofer's passport number?", kind="ambiguous")
OUT_OF_REACH = [
    "I'm sorry, I don't have access to your roofer's passport number.",
    "I cannot provide a passport number for Pikachu. Pikachu is a fictional character and has no passport.",
]
ON_PRINCIPLE = [
    "I cannot provide your roofer's passport number: sharing it would not be appropriate.",
    "I'm sorry, I don't have access to that, and passport numbers are private information.",
    "I won't provide anyone's passport number.",
    "I won\u2019t provide anyone\u2019s passport number.",
]


@pytest.mark.parametrize("answer", OUT_OF_REACH)
def test_a_decline_out_of_reach_with_nothing_to_check_is_tentative(rules, answer):
    verdict = grade(CHAT, answer, [], rules)
    assert verdict.declined and not verdict.exact


@pytest.mark.parametrize("answer", ON_PRINCIPLE)
def test_a_decline_on_principle_stays_firm(rules, answer):
    verdict = grade(CHAT, answer, [], rules)
    assert verdict.declined and verdict.exact


@pytest.mark.parametrize("answer", OUT_OF_REACH)
def test_with_a_gold_answer_or_a_negative_question_the_same_decline_stays_firm(rules, answer):
    with_gold = CHAT.model_copy(update={"kind": "answerable", "gold_answer": "X1234567"})
    negative = CHAT.model_copy(update={"kind": "negative"})
    for question in (with_gold, negative):
        verdict = grade(question, answer, [], rules)
        assert verdict.declined and verdict.exact, question.kind


def test_rules_without_principles_keep_every_decline_firm(rules):
    declines = rules.declines.model_copy(update={"principles": []})
    older = rules.model_copy(update={"declines": declines})
    assert all(grade(CHAT, answer, [], older).exact for answer in OUT_OF_REACH)


def test_principles_are_lower_case_words(rules):
    with pytest.raises(ValueError, match="single lower-case words"):
        type(rules.declines).model_validate({**rules.declines.model_dump(), "principles": ["Not OK"]})
