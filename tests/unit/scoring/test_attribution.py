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


_COVER = (
    "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-K\n"
    "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
    "Item 7. Revenue by segment: Commercial Airplanes 39%, Defense, Space & Security 37%.\n"
)


@pytest.mark.parametrize(
    "lead, copied_from",
    [
        ("", 0),
        ("[START OF FILING]\n\n", 0),
        ("Here is the relevant filing:\n\n", len("Here is the relevant filing:\n\n")),
    ],
)
def test_an_answer_that_reproduces_its_filing_asserts_nothing_in_it(rules, lead, copied_from):
    """A pasted filing holds the key somewhere in its thousands of words; the answerer said none of them."""
    question = _key("Which segment is the largest share of revenue?", "Commercial Airplanes")
    answer = lead + _COVER
    assert grade(question, answer, [], rules).verdict != "correct"
    assert attributed_spans(answer, rules.attribution)[-1] == (copied_from, len(answer))


def test_an_answer_that_names_the_commission_speaks_in_its_own_voice(rules):
    """Only a line that opens the document's own text, as written, starts a reproduction."""
    question = _key("Which segment is the largest share of revenue?", "Commercial Airplanes")
    for answer in (
        "Commercial Airplanes is the largest, per the 10-K filed with the United States Securities and Exchange Commission.",
        "Commercial Airplanes is the largest.\nUnited States Securities and Exchange Commission filings say so.",
    ):
        assert grade(question, answer, [], rules).verdict == "correct"
    before = "Commercial Airplanes is the largest.\n\n"  # an answer first, then the filing: the answer stands
    assert grade(question, before + _COVER, [], rules).verdict == "correct"
