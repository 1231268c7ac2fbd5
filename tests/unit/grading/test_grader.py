"""The grader's verdicts on the failure modes it exists to catch."""

import pytest

from ragpipe.corpus.questions import Question
from ragpipe.grading.checks.decline.decide import decide
from ragpipe.grading.grader import grade
from ragpipe.grading.rules import RulesError, load_rules


def q(kind="answerable", **kw):
    base = {"id": "q", "text": "What is the amount?", "kind": kind, "golden_docs": ["bill"]}
    return Question(**{**base, **kw})


@pytest.mark.parametrize(
    "answer",
    [
        "This question is not directly addressed in the provided sources.",
        "The specific figure is not explicitly stated in the provided sources.",
        "I could not find this in the provided documents.",
        "The provided text does not include the figure.",
    ],
)
def test_declines_read_as_declines(answer, rules):
    assert decide(answer, rules).declined


@pytest.mark.parametrize(
    "answer",
    [
        "You may deduct medical expenses not covered by insurance [1].",
        "Form 1040 Schedule A covers itemized deductions; casualty losses are not covered there [2].",
        "Flood damage is not covered under this policy. [1]",
    ],
)
def test_not_covered_is_an_answer_not_a_decline(answer, rules):
    assert not decide(answer, rules).declined
    assert "not covered" in {e.phrase for e in rules.declines.exclusions}


def test_whole_dollar_money_key(rules):
    question = q(money_key="$44,322")
    assert grade(question, "Amount you owe: $44,322 [1]", ["bill"], rules).verdict == "correct"
    wrong = grade(question, "You owe $450,658 [1]", ["bill"], rules)
    assert (wrong.verdict, wrong.failure, wrong.money_question) == ("wrong", "wrong money figure", True)


def test_reasoning_aloud_with_the_wrong_figure_is_wrong(rules):
    question = q(money_key="$42.99")
    answer = (
        "The amount due is $26.99. This is indicated in Source 3, where the ending balance is listed "
        "as $42.99, but the amount due is specified as $26.99. Therefore the amount due is $26.99."
    )
    g = grade(question, answer, [], rules)
    assert g.verdict == "wrong" and g.failure == "wrong money figure" and "$26.99" in g.wrong_money


def test_a_key_among_a_calculations_inputs_is_not_its_answer(rules):
    """The concluding figure of a written calculation is what the answer asserts; the key it opens with
    is an input. Without the calculation, the figure an answer opens with is still its answer."""
    question = q(text="What were gross receivables in USD millions?", money_key="$2,318")
    calculated = (
        "Receivables of $2,318.4 million less a $41.2 million allowance: net receivables were $2,277.2 million."
    )
    g = grade(question, calculated, [], rules)
    assert (g.verdict, g.failure) == ("wrong", "wrong money figure") and "$2,277.2 million" in g.wrong_money
    assert grade(question, "Gross receivables were $2,318.4 million.", [], rules).verdict == "correct"
    owe = q(money_key="$44,322")  # the same arithmetic among the figures, but no calculation written out
    assert grade(owe, "They owe $44,322. Total income was $120,000 and tax withheld $75,678.", [], rules).verdict == (
        "correct"
    )
    subtracted = "Net sales of $19,373 million - $13,997 million of costs = $5,376 million."
    assert grade(q(money_key="$5,376 million"), subtracted, [], rules).verdict == "correct"
    assert grade(q(money_key="$19,373 million"), subtracted, [], rules).verdict == "wrong"


def test_fee_key_is_not_found_inside_a_larger_figure(rules):
    g = grade(q(money_key="$20.00"), "The balance was -$10,020.00.", [], rules)
    assert g.verdict == "wrong"
    assert not any(m["kind"] == "must_contain" for m in g.matched)


def test_negative_and_ambiguous(rules):
    neg = q(kind="negative")
    assert grade(neg, "I could not find this in the provided documents.", [], rules).verdict == "correct"
    g = grade(neg, "The premium is $1,284.00 [1]", ["bill"], rules)
    assert (g.verdict, g.failure) == ("wrong", "did not decline")
    amb = q(kind="ambiguous", money_key="$2,268.46")
    assert grade(amb, "I could not find this in the provided documents.", [], rules).rule == "ambiguous.declined"
    assert grade(amb, "Together they come to $2,268.46 [1]", ["bill"], rules).verdict == "correct"
    assert grade(amb, "Together they come to $2,150 [1]", ["bill"], rules).failure == "wrong money figure"


def test_declining_an_answerable_question(rules):
    g = grade(q(money_key="$5"), "I could not find this in the provided documents.", [], rules)
    assert (g.verdict, g.declined, g.failure) == ("wrong", True, "declined an answerable question")


def test_needles_partial_forbidden_and_citation(rules):
    question = q(must_contain=["flood", "not covered"], must_not_contain=["flood damage is covered"])
    assert grade(question, "Flood damage is not covered. [1]", ["bill"], rules).verdict == "correct"
    g = grade(question, "Flood is excluded. [1]", ["bill"], rules)
    assert (g.verdict, g.failure) == ("partial", "missing needles")
    assert grade(question, "Flood damage is covered. [1]", ["bill"], rules).rule == "needles.must_not_contain"
    g = grade(question, "Flood damage is not covered. [1]", ["lease"], rules)
    assert (g.verdict, g.failure) == ("partial", "did not cite the golden document")


def test_mined_needles_grade_questions_without_authored_ones(rules):
    question = q()
    assert grade(question, "It was $1,577.", [], rules, mined=[("$1,577", "money")]).rule == "needles.mined.all"
    g = grade(question, "It was something.", [], rules)
    assert g.ungradable and g.verdict == "ungradable" and g.failure == "ungradable: no needles"


def test_matched_spans_point_into_the_answer(rules):
    answer = "Ending balance: $42.99 [1]"
    g = grade(q(money_key="$42.99"), answer, ["bill"], rules)
    span, mark = g.matched  # the evidence, then what a reader is shown beside it (grading/marks.py)
    assert answer[span["start"] : span["end"]] == "$42.99" and span["kind"] == "money_key"
    assert answer[mark["start"] : mark["end"]] == "$42.99" and (mark["kind"], mark["role"]) == ("money", "key")


def test_grading_is_deterministic(rules):
    question = q(money_key="$42.99", must_contain_any=["balance"])
    a = grade(question, "Ending balance: $42.99 [1]", ["bill"], rules)
    b = grade(question, "Ending balance: $42.99 [1]", ["bill"], rules)
    assert a == b


def test_grader_version_follows_the_rules_file(tmp_path, rules):
    from ragpipe.grading.rules import DEFAULT_RULES

    changed = tmp_path / "rules.yaml"
    changed.write_text(DEFAULT_RULES.read_text() + "\n# a comment is a change to the ruler\n")
    assert load_rules(changed).version != rules.version
    same = tmp_path / "same.yaml"
    same.write_bytes(DEFAULT_RULES.read_bytes())
    assert load_rules(same).version == rules.version


@pytest.mark.parametrize(
    "text, message",
    [
        ("declines: {phrases: []}\n", "declines.phrases"),
        ("declines: {phrases: [x]}\nmoney: {question_patterns: ['(']}\n", "invalid regex"),
        ("declines: {phrases: [x]}\nsurprise: 1\n", "surprise"),
        (
            "declines: {phrases: [not covered], exclusions: [{phrase: not covered, reason: r}]}\n",
            "both a phrase and an exclusion",
        ),
    ],
)
def test_bad_rules_files_are_refused(tmp_path, text, message):
    path = tmp_path / "rules.yaml"
    path.write_text(text)
    with pytest.raises(RulesError, match=message):
        load_rules(path)


# --- what the answer asserts -------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "The provided text does not include the amount of restructuring costs.",
        "I'm sorry, but the information provided does not include the FY2019 inventory figure.",
        "As an AI language model, I do not have access to external documents such as SEC filings.",
        "To calculate the ratio, you would need the net income for FY2017 and total assets for FY2016 and FY2017.",
        "I'm sorry, but you haven't provided the balance sheet. If you can provide it, I can compute the quick ratio.",
        "Based on the provided context, there is no specific mention of the debt securities registered under 3M's name.",
    ],
)
def test_refusal_dialects(answer, rules):
    assert decide(answer, rules).declined


@pytest.mark.parametrize(
    "answer",
    [
        "Net income was $11,588 million. The document does not specify how much is attributable to shareholders.",
        "Revenue grew 4.2% to $3,215 million; the filing does not provide a segment breakdown.",
        "As of my last update, Foot Locker's CEO was Mary Dillon.",
    ],
)
def test_an_answer_that_asserts_a_figure_is_not_a_decline(answer, rules):
    assert not decide(answer, rules).declined


def test_hypothetical_figures_assert_nothing(rules):
    answer = (
        "I do not have access to the filing. For example, if revenue were $100 million and COGS $60 million, "
        "the margin would be 40%."
    )
    assert decide(answer, rules).declined


def test_own_voice_not_the_sources(rules):
    """A needle the answer only attributes to a source is not the answer's claim."""
    question = q(text="What filing status did they use?", must_contain=["married filing jointly"])
    attributed = "Their filing status is single. This is indicated in Source 1, where married filing jointly is listed as an option."
    g = grade(question, attributed, [], rules)
    assert (g.verdict, g.failure) == ("wrong", "missing needles")
    assert grade(question, "According to [1], they filed as married filing jointly.", [], rules).verdict == "correct"
    assert grade(question, "The status, as stated in [1], is married filing jointly.", [], rules).verdict == "correct"


def test_declining_a_fee_while_quoting_a_balance(rules):
    for answer in [
        'I could not find the fee. The statement quotes "-$10,020.00".',
        "I could not find the fee; the statement shows an ending balance of -$10,020.00.",
    ]:
        g = grade(q(money_key="$20.00"), answer, [], rules)
        assert g.verdict == "wrong", answer
        assert not any(m["kind"] == "money_key" for m in g.matched), answer


def test_question_unit_reads_bare_keys_and_answers(rules):
    """A bare key or answer is read in the question's unit; so is the key in the ways a chat model writes it
    (Markdown, escapes, scale words, currency codes: seen 2026-12-05). A figure coarser than
    three significant figures of the key, or another year's, is still wrong."""
    question = q(text="What was capital expenditure in FY2018 (in USD millions)?", money_key="$1577.00")
    for answer in [
        "Capex was $1,577 million.",
        "Capex was $1.577 billion.",
        "Capex was 1,577.",
        "Capex was $1,576.8 million.",
        "**$1,577 million**",
        "| Item | Amount |\n|---|---|\n| Capex | $1,577 |",
        "The answer is \\$1,577 million.",
        "Capex was USD 1.577 billion.",
        "Capex was $1.58 billion.",
        "Capex was $1,577,000 thousand.",
        "Capex was $1,577,000,000.",
        "Capital expenditure: $1,577m",
        "Capex was US$1,577mn.",
        "Capex: $ 1,577 million",
    ]:
        assert grade(question, answer, [], rules).verdict == "correct", answer
    for answer in [
        "Capex was $1,677 million.",
        "Capex was $1.6 billion.",
        "~$1.6B",
        "Capex was $1,373 million in 2017 and rose in 2018.",
    ]:
        assert grade(question, answer, [], rules).failure == "wrong money figure", answer


def test_yes_no_questions(rules):
    question = q(text="Is 3M a capital-intensive business?", polarity="no", golden_docs=[])
    assert grade(question, "No, 3M manages its capex efficiently.", [], rules).verdict == "correct"
    g = grade(question, "Based on the filing, yes, it is capital intensive.", [], rules)
    assert (g.verdict, g.failure, g.matched[0]["needle"]) == ("wrong", "wrong yes/no", "yes")
    assert grade(question, "It invests heavily in plants.", [], rules).verdict == "ungradable"


def test_financebench_polarity_comes_from_the_gold_answer():
    from ragpipe.corpus.adapters.financebench import polarity_of

    assert polarity_of("Is Boeing's business subject to cyclicality?", "Yes, Boeing's business is cyclical.") == "yes"
    assert polarity_of("What drove margins?", "No single factor.") is None  # not a yes/no question
    assert polarity_of("Does AMD pay a dividend?", "AMD does not pay one.") is None  # no leading Yes/No
