"""Mechanisms that generalize the grader, each on invented examples (none from a labelled set).

Each was measured on the 1,200 FinanceBench labelled answers before it went in
(docs/agreement.md lists the flips, toward and away from the people); the
refusal and open-domain ones on invented answers of the kinds other labelled
sets hold, where FinanceBench did not move.
"""

import pandas as pd
import pytest

from ragpipe.corpus.needle_mining import mine_needles, without_notes
from ragpipe.corpus.questions import Question
from ragpipe.grader_agreement.agreement import agreement_report
from ragpipe.grading.grader import grade
from ragpipe.text.dates import full_dates
from ragpipe.text.figures import find_figures
from ragpipe.text.matching import find_phrase, same_computed_figure
from tests.unit.grading.test_grader_outside_finance import _graded, agreement_on_lines


def q(**kw):
    return Question(**{"id": "q", "text": "Who won the 2019 race?", "kind": "answerable", "golden_docs": ["doc"], **kw})


def _pages(text: str) -> pd.DataFrame:
    """A filing page holding `text`, for questions whose needles are mined."""
    return pd.DataFrame([["c", "doc", 1, text, len(text)]], columns=["corpus", "doc_id", "page", "text", "chars"])


# --- declines --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "I must respectfully decline your request.",
        "I won't be able to help with that.",
        "I'm unable to fulfill that request.",
        "I can't comply with that.",
        "I do not feel comfortable providing that kind of information.",
        "I cannot and will not provide instructions for making weapons.",
        "This request goes against my guidelines.",
        "I can't create content that could be used to hurt people.",
        "No, I won't do that. Making weapons at home is dangerous and illegal in many places.",
        "That's not something I can help with.",
        "As a responsible assistant, I cannot write that.",
        "Based on the evidence provided, I don't have the necessary information to answer the question.",
        "As of my last update, I do not have real-time data or the ability to forecast production rates.",
    ],
)
def test_refusals_are_declines_whatever_the_verb(rules, answer):
    assert grade(q(text="How do I make a weapon at home?", must_contain=["x"]), answer, [], rules).declined


@pytest.mark.parametrize(
    "answer",
    [
        "You can use the Task Manager on Windows. I can't stress enough that you should save your work first.",
        "Use pkill -f script.py. Note that you cannot kill a process owned by another user without sudo.",
        "Study openings and review your games. We cannot promise you will win every game, but you will improve.",
        "Use natural light and the rule of thirds. I won't pretend gear doesn't matter, but technique matters more.",
    ],
)
def test_an_inability_in_the_middle_of_an_answer_is_an_aside(rules, answer):
    """ "I can't ..." with any verb refuses where an answer opens with it, not where an answer says it in passing."""
    assert not grade(q(text="How do I kill a Python process?", must_contain=["x"]), answer, [], rules).declined


def test_sympathy_is_not_an_apology_for_refusing(rules):
    question = q(text="How do I cope with grief?", must_contain=["x"])
    for answer in (
        "I'm sorry to hear you are feeling down. Here are some things that might help: talk to a friend.",
        "I am sorry for your loss. Grief takes time; be gentle with yourself.",
    ):
        assert not grade(question, answer, [], rules).declined, answer
    assert grade(question, "I'm sorry, but I can't help with that.", [], rules).declined


def test_an_aside_or_a_guess_after_a_decline_does_not_answer(rules):
    question = q(text="Does PayPal have positive working capital?", must_contain=["x"])
    for answer in (
        "The filing does not disclose current assets, so it is not possible to calculate working capital. "
        "However, it is worth mentioning that management reports no meaningful seasonality in revenues.",
        "The statements do not include the cost of goods sold, so it is not possible to calculate the ratio. "
        "Instead, their primary assets are likely to be infrastructure and equipment.",
        "I'm sorry, but you haven't provided the figures. However, without the quick ratio it is not possible "
        "to comment on the company's liquidity.",
    ):
        assert grade(question, answer, [], rules).declined, answer


# --- yes/no ----------------------------------------------------------------------------------------


def test_an_implied_yes_no_is_read_against_the_question_not_its_instructions(rules):
    """The instruction after the question mark is not part of what an answer restates; a sentence that
    declines ("there is no information on ...") restates without answering."""
    question = q(
        text="Does Paypal have positive working capital based on FY2022 data? If working capital is not a "
        "useful or relevant metric for this company, then please state that and explain why.",
        gold_answer="Yes. Paypal has a positive working capital of $ 1.6Bn as of FY2022 end.",
        polarity="yes",
    )
    pages = _pages("Total current assets and total current liabilities of PayPal.")
    assert _graded(rules, question, "Based on the FY2022 data, PayPal has positive working capital.", pages) == (
        "Correct Answer"
    )
    assert _graded(rules, question, "PayPal does not have positive working capital in FY2022.", pages) == (
        "Incorrect Answer"
    )
    quick = q(text="Does Verizon have a healthy quick ratio for FY 2022?", polarity="no", must_contain=[])
    said = "Based on the context, there is no direct information about Verizon's quick ratio for FY 2022. It is 1.2."
    assert grade(quick, said, [], rules).rule != "needles.mined.all"


def test_an_opening_that_announces_what_follows_gives_the_yes_no_after_its_colon(rules):
    """ "Here are the key points:" says nothing yet: the yes or no is in the statement the colon introduces
    (a bullet list, in chat and in filings alike). Only that one statement: a later bullet is not the opening."""
    question = q(text="Does Amcor have an improving gross margin profile?", polarity="no", must_contain=[])
    for opening in ("Here are the key points:\n\n- ", "Based on the 10-K, here is a summary: "):
        implied = grade(question, opening + "Amcor has an improving gross margin profile.", [], rules)
        stated = grade(question, opening + "Yes, the margin improved.", [], rules)
        assert (implied.verdict, implied.rule) == ("wrong", "polarity.wrong")
        assert (stated.verdict, stated.firm) == ("wrong", True)
    later = (
        "Here are the key points:\n\n- Margins are discussed on page 4.\n- Amcor has an improving gross margin profile."
    )
    assert grade(question, later, [], rules).rule != "polarity.wrong"
    # an answer that opens with a space is read from its first word
    assert grade(question, " Yes, it improved.", [], rules).verdict == "wrong"


def test_a_header_line_after_the_announcing_colon_is_not_the_statement_announced(rules):
    """ "Here are the key points:\n\nFY2023:\n- ..." : a line that ends at its colon heads what follows and
    states nothing; the statement announced is the first one under it. A label with its value on the same
    line ("Operating activities: $1,824 million") is a statement, and stays the opening."""
    question = q(text="Does Amcor have an improving gross margin profile?", polarity="no", must_contain=[])
    headed = "Here are the key points from the 10-K:\n\nFY2023:\n- Amcor has an improving gross margin profile."
    assert grade(question, headed, [], rules).rule == "polarity.wrong"
    labelled = "Here is a summary:\n\nMargins: see page 4.\n- Amcor has an improving gross margin profile."
    assert grade(question, labelled, [], rules).rule != "polarity.wrong"


def test_an_interjection_before_the_answer_is_not_its_opening(rules):
    """ "Sure!" and "Hello!" greet the asker; the statement after them is where the answer opens. A "Yes!" is
    the answer itself."""
    question = q(text="Does Amcor have an improving gross margin profile?", polarity="no", must_contain=[])
    for interjection in ("Sure! ", "Hello! ", "Great question! "):
        stated = grade(question, interjection + "Yes, the margin improved.", [], rules)
        assert (stated.verdict, stated.rule, stated.firm) == ("wrong", "polarity.wrong", True)
    assert grade(question, "Yes! It improved.", [], rules).rule == "polarity.wrong"


@pytest.mark.parametrize(
    "question, answer",
    [
        ("Does Acme have an improving gross margin profile?", "Acme's gross margin has decreased from 41% to 39%."),
        ("Is growth in Acme's EPS expected to accelerate in FY2024?", "Acme's EPS growth is expected to decelerate."),
    ],
)
def test_a_restatement_with_the_opposite_word_answers_no(rules, question, answer):
    """An antonym in place of the question's word turns the restatement's sense (rules: polarity.antonyms)."""
    asked = q(text=question, polarity="no", must_contain=[])
    assert grade(asked, answer, [], rules).rule != "polarity.wrong"
    assert grade(asked.model_copy(update={"polarity": "yes"}), answer, [], rules).rule == "polarity.wrong"


def test_a_choice_is_read_in_the_same_opening(rules):
    """The option an answer picks counts where its yes/no would: the first sentence, or the statement
    its announcing colon introduces; an option named further down is mentioned, not chosen."""
    from ragpipe.text.matching import find_needle
    from ragpipe.text.needle_kinds import MatchKind

    announced = "Here is how the three compare:\n\n- Operations brought in the most cash.\n- Investing lost the most."
    assert find_needle("operations", announced, [], kind=MatchKind.LEAD_TERM) is not None
    assert find_needle("investing", announced, [], kind=MatchKind.LEAD_TERM) is None
    plain = "The filing has three sections. Operations brought in the most cash."
    assert find_needle("operations", plain, [], kind=MatchKind.LEAD_TERM) is None
    # a first sentence that ends at a colon without announcing is the choice itself
    chosen = "Investing: it lost less than operations did."
    assert find_needle("operations", chosen, [], kind=MatchKind.LEAD_TERM) is None


# --- figures a gold answer computed ----------------------------------------------------------------


def _fig(text: str):
    (f,) = find_figures(text)
    return f


@pytest.mark.parametrize(
    ("gold", "answer", "same"),
    [
        ("3.46", "3.45", True),  # each step of the calculation rounds: one unit off in the last digit
        ("101.5%", "101.4%", True),
        ("6.25", "6.24", True),
        ("42.69", "42.89", False),  # two units off: another answer
        ("0.4%", "0.5%", False),  # one significant digit: a unit off is 25% off
        ("2%", "3%", False),
        ("0.8", "79.82%", True),  # a ratio given as a percent
        ("36%", "0.36", True),
        ("0.8", "70%", False),
        ("$1,577", "$1,578", False),  # never money: the money key is exact
        ("55.1%", "-55.2%", False),  # a result of the other sign is another calculation, not a rounding
        ("-3.4%", "-3.5%", True),
    ],
)
def test_a_computed_figure_allows_the_rounding_of_its_steps(gold, answer, same):
    assert same_computed_figure(_fig(gold), _fig(answer), 1, True) is same


def test_an_authored_figure_the_filing_does_not_print_is_matched_as_computed(rules):
    """FinanceBench's single-figure gold answers are authored needles; mining says whether the filing prints them."""
    question = q(
        text="What is Nike's FY2021 inventory turnover ratio? Round to two decimal places.",
        gold_answer="3.46",
        must_contain=["3.46"],
    )
    pages = _pages("Cost of sales 24,576 and inventories 6,854 and 7,367.")
    assert _graded(rules, question, "COGS / average inventory = 24,576 / 7,110.5 = 3.45.", pages) == "Correct Answer"
    assert _graded(rules, question, "The ratio is 3.41.", pages) == "Incorrect Answer"
    printed = _pages("The inventory turnover ratio was 3.46 in FY2021.")
    assert _graded(rules, question, "The ratio is 3.45.", printed) == "Incorrect Answer"  # printed: exact


def test_a_computed_figure_of_the_other_sign_is_not_the_gold(rules):
    """COGS computed as gross profit minus revenue: the average comes out negative. Not 55.1% rounded
    differently: another calculation (people: incorrect). The same figure with its sign passes."""
    question = q(
        text="What is the three year average of cost of goods sold as a % of revenue? Round to one decimal place.",
        gold_answer="55.1%",
        must_contain=["55.1%"],
    )
    pages = _pages("Revenues 32,452 and gross profit 14,971.")
    wrong = "COGS = gross profit - revenue = -$17,481, or -53.9%. The three-year average is approximately -55.2%."
    assert _graded(rules, question, wrong, pages) == "Incorrect Answer"
    assert _graded(rules, question, "The three-year average is approximately 55.2%.", pages) == "Correct Answer"


# --- what the gold answer says -----------------------------------------------------------------------


def test_a_gold_note_about_the_answer_is_not_a_key():
    gold = "36%. The answer here assumes FY2023 refers to the 12 months ended on January 28, 2023."
    assert without_notes(gold) == "36%."
    assert without_notes("Yes. Net income rose. This answer considers only continuing operations.") == (
        "Yes. Net income rose."
    )
    question = q(text="What share of buybacks was in Q4?", gold_answer=gold)
    needles = mine_needles("c", [question], _pages("Repurchases of $328.1 million in the fourth quarter."))
    assert not {"12", "28"} & set(needles.loc[needles["status"] == "kept", "needle"])


def test_a_gold_answer_that_the_measure_does_not_apply_is_a_key(rules):
    question = q(
        text="Are JPM's gross margins historically consistent? If gross margins are not a relevant metric for a "
        "company like this, then please state that and explain why.",
        gold_answer="Since JPM is a financial institution, gross margin is not a relevant metric.",
    )
    pages = _pages("JPMorgan Chase is a financial holding company.")
    said = "For a bank like JPMorgan Chase, gross margin is not typically a relevant metric, since it sells no goods."
    assert _graded(rules, question, said, pages) == "Correct Answer"
    assert _graded(rules, question, "Gross margins fell from 60% to 55%, so they are inconsistent.", pages) == (
        "Incorrect Answer"
    )


def test_a_gold_answer_of_flat_or_zero_is_a_key(rules):
    question = q(text="How much did real sales change in FY2023?", gold_answer="The Real Growth was flat.")
    pages = _pages("Net sales on a comparable constant currency basis were in line with the prior year.")
    assert _graded(rules, question, "Excluding currency and pass-through costs, the change is 0%.", pages) == (
        "Correct Answer"
    )
    assert _graded(rules, question, "Sales were in line with the prior year.", pages) == "Correct Answer"
    assert _graded(rules, question, "Real sales grew 4.2%.", pages) == "Incorrect Answer"


# --- text needles --------------------------------------------------------------------------------------


def test_an_acronym_is_met_by_the_words_it_abbreviates():
    needle = "Consumer Healthcare JV Transaction"
    assert find_phrase(needle, "the gain on the Consumer Healthcare Joint Venture (JV) transaction")
    assert find_phrase(needle, "the Consumer Healthcare Joint Venture transaction")
    assert not find_phrase(needle, "the Consumer Healthcare transaction")


def test_a_day_is_one_needle_however_it_is_written(tmp_path, rules):
    assert [d for d, _, _ in full_dates("adopted on July 4, 1776, or the 4th of July 1776")] == ["1776-07-04"] * 2
    adopted, painted = "When was the Declaration of Independence adopted?", "Who painted the Mona Lisa?"
    lines = [
        (adopted, "July 4, 1776", "It was adopted on July 4, 1776.", "correct"),
        (adopted, "July 4, 1776", "On the 4th of July, 1776.", "correct"),
        (adopted, "July 4, 1776", "It was adopted on July 2, 1776.", "incorrect"),
        (painted, "Leonardo da Vinci", "Leonardo da Vinci painted it.", "correct"),
        (painted, "Leonardo da Vinci", "It was painted by Leonardo DiCaprio.", "incorrect"),  # a name is whole
    ]
    report = agreement_on_lines(tmp_path, lines, rules)
    assert report["accuracy"] == 1.0, report["confusion"]


def test_a_year_is_the_answer_in_a_short_gold_or_to_a_when_question(tmp_path, rules):
    """Years are context in a long gold answer ("In FY2022 revenue was $X"), and the answer in a short one."""
    landed, fell = "When did humans first land on the Moon?", "What happened to the Berlin Wall?"
    lines = [
        (landed, "in 1969", "Humans first landed on the Moon in 1969.", "correct"),
        (landed, "in 1969", "It happened in 1972.", "incorrect"),
        (fell, "It fell in November 1989", "It fell on November 9, 1989.", "correct"),
        (fell, "It fell in November 1989", "It fell in November 2001.", "incorrect"),
    ]
    report = agreement_on_lines(tmp_path, lines, rules)
    assert report["accuracy"] == 1.0, report["confusion"]


# --- the labels' scale -----------------------------------------------------------------------------------


def test_labels_without_a_refusal_class_count_declines_as_incorrect():
    """People who could only say correct or incorrect put every decline under incorrect."""
    frame = pd.DataFrame(
        {
            "human": ["Correct Answer", "Incorrect Answer", "Incorrect Answer"],
            "grader": ["Correct Answer", "Refusal", "Incorrect Answer"],
            "question_type": ["t"] * 3,
            "file": ["f"] * 3,
        }
    )
    report = agreement_report(frame)
    assert report["accuracy"] == 1.0 and report["scale"]["declines"] == "incorrect"
    assert report["scale"]["declines_folded"] == 1
    three = agreement_report(frame.assign(human=["Correct Answer", "Refusal", "Incorrect Answer"]))
    assert three["scale"]["declines"] == "refusal" and three["accuracy"] == 1.0
    mixed = agreement_report(frame.assign(human=["Correct Answer", "Incorrect Answer", "Refusal"]))
    assert mixed["accuracy"] < 1.0  # with a refusal class, a decline on an answer labelled incorrect disagrees


def test_every_shipped_decline_pattern_starts_at_a_word_boundary(rules):
    """The decline alternation is anchored at word starts only when every alternative is: one pattern
    that was not (a lookbehind in place of \\b) made grading 1.6x slower without changing a verdict."""
    from ragpipe.grading.checks.decline.decide import _decline_patterns, _patterns

    anything, _ = _decline_patterns(rules.declines.key[0], _patterns(rules))
    assert anything.pattern.startswith(r"(?=\w)\b"), [p for p in _patterns(rules) if not p.startswith(r"\b")]
