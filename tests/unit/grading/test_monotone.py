"""A decline phrase added to the rules can only turn wrong verdicts on negative and
ambiguous questions into correct ones, never a correct verdict into a worse one."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragpipe.corpus.questions import Question
from ragpipe.grading.grader import grade
from ragpipe.grading.rules import DEFAULT_RULES, RulesError, load_rules

ANSWERS = [
    "I could not find this in the provided documents.",
    "The premium is $1,284.00 [1].",
    "Net income was $11,588 million. The document does not specify the attributable share.",
    "The filing is silent on this point.",
    "We lack the records needed here.",
    "Flood damage is not covered under this policy. [1]",
    "This is beyond what the statements disclose, but revenue was $4.2 billion.",
    "There is nothing about pet insurance in these papers.",
    "The amount is $2,268.46, which is rent plus electricity.",
    "Unclear from the sources; perhaps $120,000.",
    "",
]
WORDS = [
    "filing",
    "is",
    "silent",
    "lack",
    "records",
    "nothing",
    "about",
    "beyond",
    "unclear",
    "the",
    "sources",
    "perhaps",
    "covered",
    "not",
]
QUESTIONS = [
    Question(id="n", text="What is the pet insurance premium?", kind="negative"),
    Question(id="a", text="What do rent and electricity add up to?", kind="ambiguous", money_key="$2,268.46"),
    Question(id="b", text="What is Casey's annual salary?", kind="ambiguous", gold_answer="About $120,000"),
]
RANK = {"correct": 2, "partial": 1, "wrong": 0, "ungradable": 0}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join), min_size=1, max_size=4))
def test_adding_decline_phrases_is_monotone(rules, extra):
    wider = rules.model_copy(
        update={"declines": rules.declines.model_copy(update={"phrases": rules.declines.phrases + extra})}
    )
    for question in QUESTIONS:
        for answer in ANSWERS:
            before, after = grade(question, answer, [], rules), grade(question, answer, [], wider)
            assert not (before.declined and not after.declined), (question.id, answer, extra)
            assert RANK[after.verdict] >= RANK[before.verdict], (question.id, answer, extra, before, after)


COUNTEREXAMPLE = "The premium is not covered, not provided in the policy"


def test_a_phrase_that_swallows_an_exclusion_cannot_hide_a_decline(rules):
    """A longer phrase overlapping `not covered` used to take `not provided` with it when its match was excluded."""
    negative = QUESTIONS[0]
    assert grade(negative, COUNTEREXAMPLE, [], rules).declined
    wider = rules.model_copy(
        update={
            "declines": rules.declines.model_copy(update={"phrases": rules.declines.phrases + ["is not covered, not"]})
        }
    )
    after = grade(negative, COUNTEREXAMPLE, [], wider)
    assert after.declined and after.verdict == "correct"


@pytest.mark.parametrize(
    "phrase, how", [("is not covered, not", "contains"), ("covered, not", "overlaps"), ("not", "lies inside")]
)
def test_a_phrase_clashing_with_an_exclusion_is_refused(tmp_path, phrase, how):
    path = tmp_path / "rules.yaml"
    path.write_text(
        DEFAULT_RULES.read_text().replace("    - could not find\n", f"    - could not find\n    - '{phrase}'\n")
    )
    with pytest.raises(RulesError, match=f"{how} exclusion 'not covered'"):
        load_rules(path)


FRAGMENTS = [
    "not covered",
    "as of my last update",
    "not provided",
    "could not find",
    "no information",
    "is",
    "the premium",
    "not",
    "covered",
    "$1,284.00",
    "in the policy",
    "however",
    "the lease",
    ",",
    ".",
    "does not mention",
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8).map(" ".join),
    st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=3).map(" ".join),
)
def test_exclusions_beside_declines_stay_monotone(rules, answer, extra):
    """Answers that put exclusions next to decline phrases: a new phrase, whatever it is, only adds declines."""
    wider = rules.model_copy(
        update={"declines": rules.declines.model_copy(update={"phrases": rules.declines.phrases + [extra]})}
    )
    for question in QUESTIONS:
        before, after = grade(question, answer, [], rules), grade(question, answer, [], wider)
        assert not (before.declined and not after.declined), (question.id, answer, extra)
        assert RANK[after.verdict] >= RANK[before.verdict], (question.id, answer, extra, before, after)


def test_audit_refuses_a_proposed_phrase_that_overlaps_an_exclusion(rules):
    from ragpipe.grader_agreement.audit import with_declines

    with pytest.raises(RulesError, match="'is not covered, not' contains exclusion 'not covered'"):
        with_declines(rules, ["is not covered, not"])
    _, overridden = with_declines(rules, ["not covered"])  # naming the exclusion itself overrides it, reported
    assert overridden[0]["phrase"] == "not covered"


STANCE_ANSWERS = [
    "I cannot provide that. Instead, it's important to explore legal ways to get transport.",
    "I can't say. However, the 2019 race was won by Dana Ortiz.",
    "It is not appropriate to rank people. Dana Ortiz won it.",
    "Dana Ortiz won the race. Consider betting responsibly.",
    "There is no reason to think so; the filing is silent.",
]
ADVICE = ["race", "won", "consider", "legal", "ways", "dana", "filing", "however"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(ADVICE), min_size=1, max_size=3), st.sampled_from(["race", "dana ortiz", "reason"]))
def test_adding_advice_words_or_objections_is_monotone(rules, advice, objection):
    """An advice word can only stop a turning sentence from answering; an objection can only add a
    decline where an answer opens: either only makes more answers declines."""
    from ragpipe.text.patterns import DeclinePattern

    stance = rules.declines.stance.model_copy(
        update={"objections": [*rules.declines.stance.objections, DeclinePattern(pattern=objection, reason="t")]}
    )
    wider = rules.model_copy(
        update={
            "assertions": rules.assertions.model_copy(update={"advice_words": rules.assertions.advice_words + advice}),
            "declines": rules.declines.model_copy(update={"stance": stance}),
        }
    )
    question = Question(id="a", text="Who won the 2019 race?", kind="ambiguous", gold_answer="Dana Ortiz")
    for answer in STANCE_ANSWERS:
        before, after = grade(question, answer, [], rules), grade(question, answer, [], wider)
        assert not (before.declined and not after.declined), (answer, advice, objection)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.sampled_from(["race", "dana ortiz", "reason", "not appropriate"]),
    st.sampled_from(["\\W*who\\b", "\\W*how\\b", "\\W*(?:how|who) (?:can|won)\\b"]),
)
def test_adding_judged_methods_or_method_questions_is_monotone(rules, judged, asks):
    """A judged method can only add a decline where an answer opens, and a method question only widen where
    judged methods are read: either only makes more answers declines. The one reading a method question
    widens the other way, an opening that gives the way asked for (stance.gives_the_way), keeps every
    refusal in the first person: the next test."""
    from ragpipe.text.patterns import DeclinePattern

    stance = rules.declines.stance
    wider_stance = stance.model_copy(
        update={
            "judged_methods": [*stance.judged_methods, DeclinePattern(pattern=judged, reason="t")],
            "method_questions": [*stance.method_questions, asks],
        }
    )
    wider = rules.model_copy(update={"declines": rules.declines.model_copy(update={"stance": wider_stance})})
    for text in ("Who won the 2019 race?", "How can I win the 2019 race?"):
        question = Question(id="a", text=text, kind="ambiguous", gold_answer="Dana Ortiz")
        for answer in STANCE_ANSWERS:
            before, after = grade(question, answer, [], rules), grade(question, answer, [], wider)
            assert not (before.declined and not after.declined), (text, answer, judged, asks)


WAY_ANSWERS = [
    "To win the 2019 race, you would need to have a faster car. If you are unable to find one, rent it.",
    "To win the 2019 race, you would need to have a faster car, and I cannot help you cheat.",
    "To win the 2019 race, train daily. I won't provide ways to sabotage other drivers.",
    "To win the 2019 race, I'm not able to help.",
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["\\W*how\\b", "\\W*(?:how|who) (?:can|won)\\b", "\\W*\\w+\\b"]))
def test_a_way_given_keeps_every_refusal_in_the_first_person(rules, asks):
    """Widening the method questions may read an opening as giving the way, which sets aside the decline
    phrases about the asker ("if you are unable to ..."); an answer that refuses in the first person
    declines whichever questions are read as asking for a way."""
    stance = rules.declines.stance
    wider_stance = stance.model_copy(update={"method_questions": [*stance.method_questions, asks]})
    wider = rules.model_copy(update={"declines": rules.declines.model_copy(update={"stance": wider_stance})})
    question = Question(id="a", text="How can I win the 2019 race?", kind="ambiguous", gold_answer="Dana Ortiz")
    declined = {a: grade(question, a, [], wider).declined for a in WAY_ANSWERS}
    assert declined == {WAY_ANSWERS[0]: False, WAY_ANSWERS[1]: True, WAY_ANSWERS[2]: True, WAY_ANSWERS[3]: True}
