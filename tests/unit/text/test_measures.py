"""A figure is the value of a measure: what the answer states each figure as, against the measure asked
(text/measures.py), and what that does to a verdict (the money guard and the needle count). Each example
of the issue, invented variants in other words, and the near misses that must stay correct and firm."""

from __future__ import annotations

import pytest

from ragpipe.corpus.questions import Question
from ragpipe.grading import outcomes
from ragpipe.grading.grader import grade
from ragpipe.text.figures import find_figures
from ragpipe.text.measures import asked_measure, bindings, states_asked, states_other, stem

OSTRANDER = "What was Ostrander Tools' operating income in FY2022 (in USD millions)?"
KESWICK = "How much did Keswick Mills pay in dividends in 2021?"


def _bound(text: str) -> dict[str, tuple[set[str], str]]:
    return {b.figure.text: (set(b.words), b.phrase) for b in bindings(text, find_figures(text))}


def test_a_question_asks_for_its_measure_without_names_periods_units_or_asking_words():
    assert asked_measure(OSTRANDER) == {stem("operating"), stem("income")}
    assert asked_measure(KESWICK) == {stem("pay"), stem("dividends")}
    assert asked_measure("What is the FY2019 EBITDA of 3M? Use the cash flow statement.") == {"ebitda"}


def test_each_figure_is_bound_to_the_measure_its_clause_states_it_as():
    said = _bound(
        "Segment profit totalled $812 million; after $95 million of corporate costs, operating income was $717 million."
    )
    assert said == {
        "$812 million": ({stem("segment"), stem("profit")}, "Segment profit"),
        "$95 million": ({stem("corporate"), stem("costs")}, "corporate costs"),
        "$717 million": ({stem("operating"), stem("income")}, "operating income"),
    }
    said = _bound("Keswick Mills declared $1.2 billion of dividends for 2021 but paid $0.9 billion in cash.")
    assert said["$1.2 billion"][0] == {stem("declared"), stem("dividends")} and said["$0.9 billion"][0] == {
        "pay",
        "cash",
    }
    assert _bound("Revenue rose 4% to $3.1 billion.") == {}  # nothing binds: left to the other readings
    assert _bound("In FY2022, Keswick Mills reported Operating Income of $5 million.") == {}  # title case: a name?


@pytest.mark.parametrize(
    "words, asked, same, other",
    [
        ({"segment", "profit"}, {"operating", "income"}, False, True),  # a qualifier of one family, another one
        ({"declared", "dividends"}, {"pay", "dividends"}, False, True),
        ({"net", "income"}, {"gross", "income"}, False, True),
        ({"net", "sales"}, {"revenue"}, False, False),  # worded otherwise: never another measure
        ({"operating", "profit"}, {"operating", "income"}, False, False),
        ({"operating", "income", "total"}, {"operating", "income"}, True, False),
    ],
)
def test_the_measure_matching_is_conservative(words, asked, same, other):
    from ragpipe.text.figures import parse_figure
    from ragpipe.text.measures import Binding

    binding = Binding(parse_figure("$1"), frozenset(map(stem, words)), "")
    asked = frozenset(map(stem, asked))
    judgement = RULES.measures.judgement
    assert (states_asked(binding, asked, judgement), states_other(binding, asked, judgement)) == (same, other)


def _money(question: str, key: str, answer: str):
    return grade(Question(id="q", text=question, kind="answerable", gold_answer=key, money_key=key), answer, [], RULES)


@pytest.fixture(autouse=True)
def _rules(rules):
    global RULES
    RULES = rules


@pytest.mark.parametrize(
    "question, key, answer, rule",
    [
        (
            OSTRANDER,
            "$812",
            "Segment profit totalled $812 million; after $95 million of corporate costs, operating income was $717 million.",
            outcomes.MONEY_OTHER_VALUE,
        ),
        (  # the same class in other words
            "What was Harlow Foods' net income for fiscal 2023 (in USD millions)?",
            "$1,040",
            "Gross income reached $1,040 million. After taxes and interest, net income came to $655 million.",
            outcomes.MONEY_OTHER_VALUE,
        ),
        (
            KESWICK,
            "$1.2 billion",
            "Keswick Mills declared $1.2 billion of dividends for 2021 but paid $0.9 billion in cash during the year.",
            outcomes.MONEY_KEY_OTHER_MEASURE,
        ),
        (
            "How much did Ardent Rail spend on share repurchases in 2020?",
            "$450 million",
            "The board authorized $450 million of share repurchases; Ardent Rail spent $310 million on them.",
            outcomes.MONEY_KEY_OTHER_MEASURE,
        ),
    ],
)
def test_an_answer_that_states_the_asked_money_measure_as_another_figure_fails_the_money_bar(
    question, key, answer, rule
):
    g = _money(question, key, answer)
    # the asked measure ("operating income", "net income", the verb "pay" or "spend") stated as another amount, in
    # one of the shapes money statements are read in (text/money_statement.py): firm, whatever the key is stated as
    rule = outcomes.MONEY_OTHER_VALUE
    assert (g.verdict, g.failure, g.rule, g.exact) == ("wrong", outcomes.WRONG_MONEY, rule, True), g
    marks = {s["kind"]: s for s in g.matched}
    assert "wrong_money" in marks and marks["mentioned_as"]["needle"].startswith("mentioned as ")


@pytest.mark.parametrize(
    "question, key, answer",
    [
        (
            OSTRANDER,
            "$812",
            "Operating income was $812 million (segment profit of $907 million less $95 million of corporate costs).",
        ),
        (KESWICK, "$1.2 billion", "Keswick Mills paid $1.2 billion in dividends in 2021."),
        (  # another year's figure of the asked measure is no contradiction
            OSTRANDER,
            "$812",
            "Operating income was $812 million in FY2022, compared with operating income of $700 million in FY2021.",
        ),
        (OSTRANDER, "$812", "Ostrander Tools' operating income was $812 million."),
    ],
)
def test_the_near_misses_stay_correct_and_firm(question, key, answer):
    g = _money(question, key, answer)
    assert (g.verdict, g.exact, g.wrong_money) == ("correct", True, ()), g


def test_a_figure_question_whose_measure_is_stated_as_another_figure_is_wrong():
    question = Question(
        id="q",
        text="What was the quick ratio of Venmark in FY2022?",
        kind="answerable",
        gold_answer="The quick ratio was 1.04.",
        must_contain=["1.04"],
    )
    g = grade(question, "Its current ratio was 1.04, while the quick ratio was 0.67.", [], RULES)
    assert (g.verdict, g.rule, g.exact) == ("wrong", outcomes.NEEDLES_OTHER_VALUE, False), g
    g = grade(question, "The quick ratio was 1.04, while the current ratio was 1.60.", [], RULES)
    assert g.verdict == "correct", g


def _mined(question: Question, page_text: str):
    from tests.unit.grading.test_grader_worked_examples import _mined as mined_from_page

    return mined_from_page(question, page_text)[1]


def test_a_lenient_reading_may_decide_a_verdict_but_never_a_firm_one():
    """The last-place slack and a ratio read as a percent fire only on figures the gold computed (mined
    from evidence pages that do not print them): they credit the answer, tentatively, and say which."""
    question = Question(
        id="q",
        text="What is the FY2022 gross margin of Tolland Paper? Answer in percent, rounded to one decimal place.",
        kind="answerable",
        gold_answer="Gross margin was 41.3%.",
        golden_docs=["doc"],
    )
    mined = _mined(question, "Net sales were 12,480. Cost of sales was 7,326.")  # 41.3% printed nowhere
    assert ("41.3%", "percent", "gold_answer_computed") in mined
    exact = grade(question, "The gross margin was 41.3%.", [], RULES, mined)
    slack = grade(question, "Gross margin: (12,480 - 7,326) / 12,480 = 41.2%.", [], RULES, mined)
    ratio = grade(question, "The gross margin was 0.413.", [], RULES, mined)
    assert (exact.verdict, exact.exact) == ("correct", True)
    assert (slack.verdict, slack.exact) == ("correct", False) and _readings(slack) == {"last_place"}
    assert (ratio.verdict, ratio.exact) == ("correct", False) and _readings(ratio) == {"ratio_as_percent"}
    assert grade(question, "The gross margin was 40.8%.", [], RULES, mined).verdict == "wrong"


def test_an_authored_alias_the_question_itself_holds_is_a_lenient_reading():
    question = Question(
        id="q",
        text="Which river runs through the Thames Valley towns?",
        kind="answerable",
        gold_answer="The Thames",
        must_contain_any=["Thames", "River Thames"],
    )
    echoed = grade(question, "It is the Thames, of course.", [], RULES)
    assert (echoed.verdict, echoed.exact) == ("correct", False) and _readings(echoed) == {"in_question"}


def _readings(g) -> set[str]:
    return {s["reading"] for s in g.matched if s.get("reading")}


def test_the_review_marks_the_wrong_figure_and_the_key_mentioned_as_another_measure():
    from ragpipe.review.annotate import annotate

    answer = (
        "Segment profit totalled $812 million; after $95 million of corporate costs, operating income was $717 million."
    )
    g = _money(OSTRANDER, "$812", answer)
    roles = {m["needle"]: m["role"] for m in g.matched if m["kind"] == "money"}
    assert roles == {"$812 million, mentioned as Segment profit": "mentioned_as", "$95 million": "mentioned",
                     "$717 million": "wrong"}  # fmt: skip
    import json

    runs = annotate(answer, json.dumps(g.matched))
    key = next(r for r in runs if r.text == "$812 million")
    assert "money-mentioned" in key.marks and any("mentioned as Segment profit" in n for n in key.notes)
    assert "money-wrong" in next(r for r in runs if r.text == "$717 million").marks


def test_the_reading_that_decided_shows_in_by_rule_and_in_the_review():
    import json

    import pandas as pd

    from ragpipe.grader_agreement.agreement import by_reading, by_rule
    from ragpipe.review.annotate import annotate

    question = Question(id="q", text="What is the FY2022 gross margin?", kind="answerable", gold_answer="41.3%")
    mined = [("41.3%", "percent", "gold_answer_computed")]
    answer = "It was 41.2%."
    g = grade(question, answer, [], RULES, mined)
    frame = pd.DataFrame(
        {"rule": [g.rule], "matched": [json.dumps(g.matched)], "human": ["Correct Answer"], "grader": ["Correct Answer"],
         "firm": [g.exact]}
    )  # fmt: skip
    assert list(by_rule(frame)) == [f"{g.rule} [last_place]"] and by_reading(frame)["last_place"]["firm"] == 0
    notes = [n for r in annotate(answer, json.dumps(g.matched)) for n in r.notes]
    assert any("lenient reading: last_place" in n for n in notes)


def test_an_authored_form_met_with_words_the_key_does_not_mark_optional_left_out_is_lenient():
    from ragpipe.text.forms import tagged_readings

    question = Question(
        id="q", text="Who was the only English pope?", kind="answerable",
        gold_answer="Nicholas Breakspear, who was Adrian IV from 1154 to 1159",
        must_contain_any=["Nicholas Breakspear, who was Adrian IV from 1154 to 1159"],
    )  # fmt: skip
    cut = grade(question, "It was Nicholas Breakspear.", [], RULES)
    assert (cut.verdict, cut.exact) == ("correct", False) and _readings(cut) == {"words_left_out"}
    # a bracketed part is optional by the key's own word, and "(accept X)" names another form: no stretch
    assert [left for _, left in tagged_readings("Michel (Albert) Roux")] == [False, False, False]
    assert not any(left for _, left in tagged_readings("PRINCE WILLIAM (accept DUKE OF CAMBRIDGE)"))
    assert [left for _, left in tagged_readings("Video Killed The Radio Star by Buggles")] == [False, True]
