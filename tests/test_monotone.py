"""A decline phrase added to the rules can only turn wrong verdicts on negative and
ambiguous questions into correct ones, never a correct verdict into a worse one."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragpipe.grading.grader import grade
from ragpipe.questions import Question

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
WORDS = ["filing", "is", "silent", "lack", "records", "nothing", "about", "beyond", "unclear", "the", "sources", "perhaps", "covered", "not"]
QUESTIONS = [
    Question(id="n", text="What is the pet insurance premium?", kind="negative"),
    Question(id="a", text="What do rent and electricity add up to?", kind="ambiguous", money_key="$2,268.46"),
    Question(id="b", text="What is Casey's annual salary?", kind="ambiguous", gold_answer="About $120,000"),
]
RANK = {"correct": 2, "partial": 1, "wrong": 0, "ungradable": 0}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join), min_size=1, max_size=4))
def test_adding_decline_phrases_is_monotone(rules, extra):
    wider = rules.model_copy(update={"declines": rules.declines.model_copy(update={"phrases": rules.declines.phrases + extra})})
    for question in QUESTIONS:
        for answer in ANSWERS:
            before, after = grade(question, answer, [], rules), grade(question, answer, [], wider)
            assert not (before.declined and not after.declined), (question.id, answer, extra)
            assert RANK[after.verdict] >= RANK[before.verdict], (question.id, answer, extra, before, after)
