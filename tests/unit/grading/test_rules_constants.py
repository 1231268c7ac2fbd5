"""The grader's decision constants live in rules.yaml, and each one decides: edit it there and the verdict moves.

Each test grades one example with the shipped rules and with a copy whose one
constant is changed; the defaults of the fields are what older rules files
meant, so a stored rules text without them grades as before.
"""

from ragpipe.corpus.questions import Question
from ragpipe.grading.checks.citations import Citations
from ragpipe.grading.checks.decline.sections import Assertions
from ragpipe.grading.grader import grade
from ragpipe.grading.rules import load_rules
from ragpipe.grading.sections import Attribution


def _with(rules, section: str, **fields):
    return rules.model_copy(update={section: getattr(rules, section).model_copy(update=fields)})


def q(**kw):
    return Question(**{"id": "q", "text": "How much do they owe?", "kind": "answerable", "golden_docs": ["doc"], **kw})


def test_the_shipped_file_states_every_constant_as_its_default():
    import yaml

    from ragpipe.grading.rules import DEFAULT_RULES

    rules = load_rules()
    stated = yaml.safe_load(DEFAULT_RULES.read_text())["assertions"]
    assert set(stated) == set(Assertions.model_fields)  # every constant written out, none unknown
    assert rules.assertions.pivots == Assertions().pivots and rules.assertions.small_number == Assertions().small_number
    assert rules.assertions.exchange_words == Assertions().exchange_words
    # words added since the field existed are in the shipped file only: a rules text without the field
    # meant the words of its time
    assert set(Assertions().general_words) < set(rules.assertions.general_words)
    assert rules.attribution.clause_ends == Attribution().clause_ends
    assert rules.citations.marker_pattern == Citations().marker_pattern
    # the readings' judgement (grading/readings/): what the code held before the sections existed
    from ragpipe.grading.readings.registry import READINGS

    for reading in READINGS:
        for name, model in reading.sections.items():
            assert getattr(rules, name) == model(), name
            assert set(yaml.safe_load(DEFAULT_RULES.read_text())[name]) == set(model.model_fields), name


def test_pivots_decide_whether_a_sentence_after_a_decline_answers(rules):
    question = q(text="Who won the 2019 race?", must_contain=["Dana Ortiz"])
    answer = "As an AI model I have no live data. However, the 2019 race was won by Dana Ortiz."
    assert grade(question, answer, [], rules).verdict == "correct"
    no_pivots = _with(rules, "assertions", pivots=["nevertheless"])
    assert grade(question, answer, [], no_pivots).declined


def test_exchange_words_keep_a_turn_about_the_asker_a_decline(rules):
    question = q(kind="negative", text="Who is the pet sitter?")
    answer = "The lease does not say. However, your pet sitter is Dana Ortiz."
    assert grade(question, answer, [], rules).declined
    assert not grade(question, answer, [], _with(rules, "assertions", exchange_words=["we"])).declined


def test_small_number_decides_what_a_count_is(rules):
    question = q(kind="negative", text="What is the pet deposit?")
    answer = "The lease has 12 pages. I could not find a pet deposit in it."
    assert not grade(question, answer, [], rules).declined  # 12 is no small count: it asserts
    assert grade(question, answer, [], _with(rules, "assertions", small_number=13)).declined


def test_clause_ends_end_a_sources_voice(rules):
    answer = (
        "This is indicated in Source 3, where the ending balance is listed as $42.99, but the amount due is $26.99."
    )
    question = q(text="What is the amount due?", money_key="$26.99")
    assert grade(question, answer, [], rules).verdict == "correct"
    assert grade(question, answer, [], _with(rules, "attribution", clause_ends=["and"])).verdict != "correct"


def test_the_citation_marker_pattern_keeps_markers_from_being_figures(rules):
    question = q(kind="negative", text="What is the pet deposit?")
    answer = "The lease is cited [12]. I could not find a pet deposit in it."
    assert grade(question, answer, [], rules).declined
    assert not grade(question, answer, [], _with(rules, "citations", marker_pattern=r"\(\d+\)")).declined


def test_the_words_of_a_money_statement_that_compares_are_the_rules(rules):
    """ "$1,950 last year" beside the key compares: with no comparing word listed, it is read as the rent now."""
    question = q(text="What is the monthly rent?", gold_answer="$2,150", money_key="$2,150")
    answer = "The monthly rent was $1,950 last year; it is now $2,150."
    assert grade(question, answer, [], rules).verdict == "correct"
    no_words = _with(rules, "money", compares=())
    assert grade(question, answer, [], no_words).rule == "money.asked_measure_other_figure"
    assert grade(question, answer, [], _with(rules, "money", compares=("last",))).verdict == "correct"
