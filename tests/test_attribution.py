"""An attribution names where a claim is written: what follows "as shown in the statement" is the source's
voice, what follows "presented by Dana Ortiz" is the answer's own. Invented examples."""

import pytest
from pydantic import ValidationError

from ragpipe.corpus.questions import Question
from ragpipe.grading.grader import grade
from ragpipe.grading.sections import Attribution
from ragpipe.text.voice import attributed_spans


def _key(text: str, key: str) -> Question:
    return Question(id="q", text=text, kind="answerable", must_contain=[key])


@pytest.mark.parametrize(
    "question, key, answer",
    [
        ("Who hosts the quiz show Tally?", "Dana Ortiz", "The quiz show Tally is presented by Dana Ortiz."),
        ("In which sport is the Reyes Cup presented?", "curling", "The Reyes Cup is presented in curling."),
        ("Where are Acme's shares traded?", "Nasdaq", "Acme's Class A shares are listed on the Nasdaq Global Market."),
        (
            "Which film was based on the novel Salt Roads?",
            "Glass Harbor",
            "The film that was based on the novel Salt Roads is Glass Harbor.",
        ),
        ("Where is Tarn Abbey?", "east of Velm", "Tarn Abbey is mentioned in the Book of Hours and is east of Velm."),
        ("Who won the Reyes Cup in 1998?", "Dana Ortiz", "The Reyes Cup was presented in 1998 to Dana Ortiz."),
    ],
)
def test_an_attribution_that_names_no_source_leaves_the_answer_its_own_voice(rules, question, key, answer):
    assert grade(_key(question, key), answer, [], rules).verdict == "correct"


@pytest.mark.parametrize(
    "named",
    [
        "as shown in the statement",
        "as reported in the company's annual report",
        "as listed on page 45",
        "as stated in Note 7",
        "as indicated in [2]",
        "based on the provided context",
        "based on the consolidated balance sheet",
    ],
)
def test_an_attribution_that_names_a_source_speaks_in_its_voice(rules, named):
    """The key quoted after a source's name, mid-sentence, is the source's figure, not the answer's."""
    question = Question(id="q", text="What is the ending balance?", kind="answerable", money_key="$42.99")
    answer = f"The amount due is $26.99, {named} where the ending balance is $42.99."
    assert attributed_spans(answer, rules.attribution)
    assert grade(question, answer, [], rules).verdict == "wrong"
    own = answer.replace(named, "as Dana Ortiz said")
    assert not attributed_spans(own, rules.attribution)


def test_a_marker_naming_a_source_needs_the_sources_listed():
    with pytest.raises(ValidationError, match="sources"):
        Attribution(markers=[r"\bas shown in\s+{source}"])
    marker = Attribution(markers=[r"\bas shown in\s+{source}"], sources=["ledger"])
    assert attributed_spans("It is $5, as shown in the old ledger, and more.", marker)
    assert not attributed_spans("It is $5, as shown in the old barn, and more.", marker)
