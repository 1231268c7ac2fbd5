"""Worked examples of the grader's mechanisms (figures asserted or mentioned, precision, the decline grammar,
needle normalization, choice and yes/no questions), each graded as a person would."""

import pytest

from ragpipe.corpus.questions import Question
from ragpipe.grading.grader import grade


def q(kind="answerable", **kw):
    base = {"id": "q", "text": "How much do they owe?", "kind": kind, "golden_docs": ["doc"]}
    return Question(**{**base, **kw})


@pytest.mark.parametrize(
    "key, question, answer",
    [
        ("$44,322", "How much do they owe?", "They owe $44,322. Total income was $512,480."),
        (
            "$26.99",
            "What is the amount due?",
            "The ending balance is $42.99; after the $16.00 credit the amount due is $26.99.",
        ),
        (
            "$5,818",
            "What is the net working capital in USD millions?",
            "$19,815 million - $13,997 million = $5,818 million",
        ),
    ],
)
def test_the_figure_the_answer_gives_is_graded_the_rest_are_mentions(rules, key, question, answer):
    g = grade(q(text=question, money_key=key), answer, [], rules)
    assert (g.verdict, g.wrong_money) == ("correct", ()), g


@pytest.mark.parametrize(
    "key, answer",
    [
        ("$44,322", "Total income was $512,480 and they owe $450,658"),  # key absent, another figure asserted
        (
            "$26.99",
            "This is indicated in Source 3, where the ending balance is listed as $42.99, so the amount due is $42.99",
        ),
    ],
)
def test_a_wrong_figure_without_the_key_is_still_wrong(rules, key, answer):
    g = grade(q(money_key=key), answer, [], rules)
    # firm: stated for what was asked ("they owe $450,658", text/money_statement.py), or no key at all
    assert g.verdict == "wrong" and g.rule in ("money.wrong_figure", "money.asked_measure_other_figure") and g.firm, g


@pytest.mark.parametrize(
    "key, question, answer, verdict",
    [
        ("$11,588", "What is net income in USD millions?", "Net income was $11.6 billion.", "correct"),
        ("$1.70 billion", "What was the capital expenditure?", "Capital expenditure was $1,699 million.", "correct"),
        ("$11,588", "What is net income in USD millions?", "Net income was $12.9 billion.", "wrong"),
        (
            "$11,588",
            "What is net income in USD millions?",
            "Net income was $12 billion.",
            "wrong",
        ),  # two figures: too loose
        ("$44,322", "How much do they owe?", "They owe $450,658.", "wrong"),
    ],
)
def test_precision_is_the_coarser_of_the_two_never_below_three_figures(rules, key, question, answer, verdict):
    assert grade(q(text=question, money_key=key), answer, [], rules).verdict == verdict


DECLINES = [
    "There is no pet deposit listed in the lease.",
    "The lease does not say anything about a pet deposit.",
    "The filings are silent on that, so I can't tell you.",
    "None of the sources mention it, so I cannot say.",
    "Sorry, but I can't help with that.",
    "The filing does not include the pet deposit.",  # a source said not to hold it, as the subject ...
    "The text provided ends abruptly and does not contain the information needed.",  # ... or as the object
    "Not found.",  # an absence, bare ...
    "The pet deposit is not found in any of the provided documents.",  # ... or placed in the material
]


@pytest.mark.parametrize("answer", DECLINES)
def test_declines_are_a_grammar(rules, answer):
    g = grade(q(kind="negative", text="What is the pet deposit?"), answer, [], rules)
    assert g.declined and g.verdict == "correct", g


@pytest.mark.parametrize(
    "answer",
    [
        "Flood damage is not covered under this policy. [1]",  # the exclusion still holds
        "You may deduct medical expenses not covered by insurance [1].",
        # "contain" and "include" decline only with a source as their subject or object (declines.grammar)
        "The green tick means it is suitable for vegetarians and does not contain any animal ingredients.",
        "The deposit does not include the first month's rent.",
        # "not found" placed anywhere but the material places a thing (declines.grammar.absences)
        "Three books of the Catholic canon are not found in the Protestant Old Testament.",
        "He did not say the best games ever.",  # a person said not to tell: a fact about him
    ],
)
def test_a_fact_in_negative_form_is_no_decline(rules, answer):
    assert not grade(q(kind="negative", text="Is flood damage covered?"), answer, [], rules).declined


def test_a_turn_overrides_a_disclaimer_for_any_answer(rules):
    question = q(text="Who won the 2019 race?", must_contain=["Dana Ortiz"])
    answer = "As an AI model I have no live data. However, the 2019 race was won by Dana Ortiz."
    g = grade(question, answer, [], rules)
    assert not g.declined and g.verdict == "correct", g


@pytest.mark.parametrize(
    "needle, answer",
    [
        ("J.R. Hale", "The 2019 race was won by J. R. Hale."),
        ("J. R. Hale", "The 2019 race was won by J.R. Hale."),
        ("Hale", "The winner was Hale2, a newcomer."),  # a footnote marker glued to the name
        ("the pet deposit", "A pet deposit of one month applies."),  # articles
        ("pet deposits", "The lease sets a pet deposit."),  # plural -s
        ("twenty-four hour notice", "They give twenty four hour notice."),  # hyphens
        ("March 2004", "It opened on March 3, 2004."),  # a date given more precisely than the gold
        ("June 9, 2016", "It closed on June 9 2016."),
    ],
)
def test_text_needles_are_normalized(rules, needle, answer):
    g = grade(q(text="Who won?", must_contain=[needle]), answer, [], rules)
    assert g.verdict == "correct", g


@pytest.mark.parametrize(
    "needle, answer",
    [
        ("flood", "The floodplain map is attached."),
        ("March 2004", "It opened in March 2005."),
        ("Hale", "The winner was Haley."),
    ],
)
def test_normalization_does_not_loosen_words(rules, needle, answer):
    assert grade(q(text="Who won?", must_contain=[needle]), answer, [], rules).verdict == "wrong"


def _mined(question: Question, page_text: str):
    import pandas as pd

    from ragpipe.corpus.needle_mining import mine_needles

    pages = pd.DataFrame(
        [["c", "doc", 1, page_text, len(page_text)], ["c", "other", 1, "Unrelated text about weather.", 29]],
        columns=["corpus", "doc_id", "page", "text", "chars"],
    )
    frame = mine_needles("c", [question], pages)
    kept = frame[frame["status"] == "kept"]
    return frame, list(zip(kept["needle"], kept["kind"], kept["source"]))


def test_a_computed_figure_is_mined_from_the_gold_answer(rules):
    question = q(
        text="What is the FY2022 inventory turnover ratio?", gold_answer="Inventory turned 2.7 times in FY2022."
    )
    frame, mined = _mined(question, "Cost of sales was 12,000. Average inventory was 4,444.")
    assert ("2.7", "number", "gold_answer_computed") in mined
    assert grade(question, "The inventory turnover ratio was about 2.70.", [], rules, mined).verdict == "correct"
    assert grade(question, "The inventory turnover ratio was 3.1.", [], rules, mined).verdict == "wrong"


def test_a_choice_question_is_graded_on_the_option_the_gold_picks(rules):
    question = q(
        text="Did wages as a percent of sales increase or decrease in FY2023?",
        gold_answer="Wages as a percent of sales increased in FY2023.",
    )
    frame, mined = _mined(question, "Wages were 9.1% of net sales, up from 8.7%.")
    assert ("increase", "option", "gold_answer") in mined
    assert grade(question, "They increased, to 9.1% of net sales.", [], rules, mined).verdict == "correct"
    assert (
        grade(question, "They decreased. Analysts had expected an increase.", [], rules, mined).verdict == "wrong"
    )  # the first sentence gives the choice


def test_a_short_gold_answer_is_a_needle_whole(rules):
    question = q(text="What was the largest liability on the balance sheet?", gold_answer="Customer deposits")
    frame, mined = _mined(question, "Liabilities: Customer deposits 110,239; Short-term borrowings 1,348.")
    assert ("Customer deposits", "answer", "page") in mined
    assert grade(question, "The largest liability was customer deposits.", [], rules, mined).verdict == "correct"
    assert grade(question, "Short-term borrowings were the largest.", [], rules, mined).verdict == "wrong"


def test_a_yes_no_question_may_open_with_a_phrase():
    from ragpipe.corpus.adapters.financebench import polarity_of

    assert (
        polarity_of("Looking at VaR, did the risk decrease compared to the prior year?", "Yes. It decreased.") == "yes"
    )
    assert polarity_of("In FY2022, what was the revenue?", "Yes, $5 billion.") is None


@pytest.mark.parametrize(
    "answer, verdict",
    [
        ("Amcor does not have an improving gross margin profile as of FY2023; it fell to 18.5%.", "correct"),
        ("Amcor's gross margin profile is declining as of FY2023.", "correct"),  # an antonym turns the sense
        ("Amcor has an improving gross margin profile as of FY2023.", "wrong"),
        ("Gross margin is gross profit over net sales.", "ungradable"),  # restates nothing: no yes/no given
    ],
)
def test_a_yes_no_answer_may_restate_the_question(rules, answer, verdict):
    question = q(text="Does AMCOR have an improving gross margin profile as of FY2023?", polarity="no")
    assert grade(question, answer, [], rules).verdict == verdict


def test_a_calculation_given_up_on_is_a_decline_its_inputs_assert_nothing(rules):
    question = q(text="What is the FY2022 interest coverage ratio?", must_contain=["4.2"])
    gave_up = (
        "Adjusted EBIT was $1,200 million. The annual interest expense is not given, so I cannot calculate the ratio."
    )
    g = grade(question, gave_up, [], rules)
    assert g.declined and g.rule == "answerable.declined", g
    # a hedge on a part is still an answer: the material lacks a detail, the answerer did not give up
    hedged = "Net income was $11,588 million. The document does not specify how much is attributable to shareholders."
    assert not grade(q(text="What was net income?", must_contain=["$11,588"]), hedged, [], rules).declined
    # and a turn after giving up answers after all
    turned = "I cannot calculate it from the excerpt. However, the ratio reported in the filing is 4.2."
    assert grade(question, turned, [], rules).verdict == "correct"
