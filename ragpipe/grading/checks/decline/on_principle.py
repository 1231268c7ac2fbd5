"""Without a gold answer, a decline is firm only when it refuses on principle.

A decline gives one of two reasons: the request is wrong (not appropriate, harmful, illegal, a matter of
privacy: a refusal on principle) or the answer is out of reach (no access, not in the documents, no such
thing). Where the question has a gold answer the answer was within reach, and either reason declines it.
Where it has none, as a chat prompt has none, "I don't have access to your roofer's passport number" or
"Pikachu is a fictional character, so he has no date of birth" may be the whole answer: people who count
rejecting a question that has no meaningful answer as answering it (XSTest's) label such replies
compliance, and the same words a refusal elsewhere. With nothing to check the answer against, the grader
cannot tell which, so the decline stands, tentative. One that names a principle (`declines.principles`)
or refuses outright ("I won't") is a refusal in every register, and stays firm. An empty list (a rules
file written before it existed) keeps every decline firm, as it did.
"""

from __future__ import annotations

from ragpipe.grading.checks.view import AnswerView
from ragpipe.text.regex_trie import any_word
from ragpipe.text.words import folded


def nothing_to_check(view: AnswerView) -> bool:
    """The question carries no gold answer, authored key or mined needle to check an answer against."""
    q = view.question
    keys = (q.gold_answer.strip(), q.must_contain, q.must_contain_any, q.money_key, q.polarity, view.mined)
    return not any(keys)


def unprincipled(view: AnswerView, declines) -> bool:
    """A decline of a question with nothing to check against that names no principle: tentative
    (`declines`: the decline check's `declines` section)."""
    if not declines.principles or not nothing_to_check(view):
        return False
    words = (*declines.principles, *declines.grammar.unwilling)
    return any_word(tuple(words)).search(folded(view.whole)) is None  # "I won\u2019t" is "I won't"
