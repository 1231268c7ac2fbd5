"""Named, not asserted: a hedge between candidates, a statement the answer corrects and a name or figure
it denies (issue 40, item 4).

The issue's own examples: "It was either Ohio or Iowa" does not assert Ohio; "Paris. Correction: Lyon"
asserts Lyon. "Belgium, not France or Switzerland" asserts Belgium alone. Each through `grade()`, with the gold authored and mined from a gold text as the
open-domain sets mine it, so the mechanism is seen where every check reads the answer.
"""

import pandas as pd
import pytest

from ragpipe.corpus.gold_text import gold_text_needles
from ragpipe.corpus.questions import Question, questions_frame
from ragpipe.grading.grade_table import grade_answers
from ragpipe.grading.grader import grade
from ragpipe.text.unasserted import corrected, denied, hedges, unasserted
from ragpipe.text.voice import blank


def spans_of(text, spans):
    return [text[s:e] for s, e in spans]


def test_a_hedge_is_found_with_each_alternative():
    text = "It was either Ohio, Indiana or Iowa. Ohio has 88 counties."
    (hedge,) = hedges(text)
    assert text[hedge.start : hedge.end] == "either Ohio, Indiana or Iowa"
    assert spans_of(text, hedge.alternatives) == ["Ohio", "Indiana", "Iowa"]


@pytest.mark.parametrize(
    "text",
    [
        "You can name either.",  # no "or" after it
        "Ohio or Iowa, people say both.",  # a bare "or" names one thing twice as often as it hedges
        "It was either Ohio. Or Iowa.",  # not inside one sentence
        "Either way, Ohio leads, or so the census says.",  # "either way" opens no disjunction
        "Either of them could win, or both.",
    ],
)
def test_no_hedge_without_either_and_or_in_one_sentence(text):
    assert hedges(text) == []


@pytest.mark.parametrize(
    "text, alternatives",
    [
        ("Revenue was either $1.5 million or $2.5 million.", ["$1.5 million", "$2.5 million"]),
        (
            "It was either $1,500 million, $1,600 million or $2,500 million.",
            ["$1,500 million", "$1,600 million", "$2,500 million"],
        ),
    ],
)
def test_a_figure_stays_whole_inside_its_hedge(text, alternatives):
    """A decimal point ends no sentence, a thousands separator separates no list."""
    (hedge,) = hedges(text)
    assert spans_of(text, hedge.alternatives) == alternatives


def test_a_correction_takes_back_the_statement_before_it():
    assert spans_of("It was Paris. Correction: Lyon.", corrected("It was Paris. Correction: Lyon.")) == [
        "It was Paris."
    ]
    assert spans_of("Paris, I mean Lyon.", corrected("Paris, I mean Lyon.")) == ["Paris"]
    assert corrected("The correction was applied in 2019. Paris is the capital.") == []


@pytest.mark.parametrize(
    "text, spans",
    [
        ("Fries come from Belgium, not France or Switzerland.", ["France or Switzerland"]),
        ("It was designed in 1834, not 1934, by Joseph Hansom.", ["1934"]),
        ("Revenue was $5.2 million -- not $6.5 million.", ["$6.5 million"]),
        ("It was designed in 1834\u2014not 1934.", ["1934"]),  # an em dash, no space
        ("It was won in 1919, not 1920 and the prize went to Wilson.", ["1920"]),  # to the clause's end
        # not a contrast of names or figures: instructions, "not only", a negated verb
        ("Do not feed him after midnight, not get him wet, and not expose him to light.", []),
        ("Ohio leads, not only in corn but in soy.", []),
        ("The filing does not break it down.", []),
    ],
)
def test_a_contrast_denies_the_name_or_figure_after_not(text, spans):
    assert spans_of(text, denied(text)) == spans


def test_blanking_keeps_offsets():
    text = "It was either Ohio or Iowa. Ohio."
    _, spans = unasserted(text)
    blanked = blank(text, spans)
    assert len(blanked) == len(text) and "Ohio or Iowa" not in blanked and blanked.endswith("Ohio.")


def ohio(**kw):
    return Question(id="q", text="Which state is the Buckeye State?", must_contain=["Ohio"], **kw)


@pytest.mark.parametrize(
    "answer, verdict",
    [
        ("It was either Ohio or Iowa.", "wrong"),  # the example
        ("Either Ohio, Indiana or Iowa.", "wrong"),
        ("It is Ohio.", "correct"),
        ("It is either Ohio or Iowa. Most sources agree on Ohio.", "correct"),  # asserted after the hedge
        ("It was Ohio. Correction: Iowa.", "wrong"),  # corrected away from the gold
        ("It was Iowa. Correction: Ohio.", "correct"),  # corrected to it
        ("Iowa, I mean Ohio.", "correct"),
        ("It is Iowa, not Ohio.", "wrong"),  # denied
        ("It is Ohio, not Iowa.", "correct"),
        ("It is Indiana, not Iowa or Ohio.", "wrong"),
    ],
)
def test_a_hedged_or_corrected_gold_is_not_asserted(rules, answer, verdict):
    assert grade(ohio(), answer, [], rules).verdict == verdict


def test_a_hedge_between_right_answers_is_right_whichever_it_is(rules):
    question = Question(
        id="q",
        text="Name either of Nixon's two aides who authorised the break-in.",
        gold_answer="Ehrlichman or Haldeman",
    )
    frame = questions_frame("c", [question])
    needles = gold_text_needles("c", [question])
    answers = pd.DataFrame(
        {
            "answer_id": ["both", "one"],
            "question_id": ["q", "q"],
            "answer": [
                "It was authorised by either John Ehrlichman or Bob Haldeman.",  # each alternative is a gold form
                "It was authorised by either John Ehrlichman or John Mitchell.",  # one is not
            ],
            "answer_set": ["s", "s"],
            "corpus": ["c", "c"],
            "config": ["d", "d"],
            "citations": [[], []],
            "error": [None, None],
        }
    )
    verdicts = grade_answers(answers, frame, needles, rules).set_index("answer_id")["verdict"]
    assert verdicts["both"] == "correct"
    assert verdicts["one"] != "correct"


def test_a_hedged_money_figure_is_not_the_key(rules):
    question = Question(id="q", text="What was FY2022 revenue (in USD millions)?", money_key="$5,000 million")
    assert grade(question, "Revenue was $5,000 million.", [], rules).verdict == "correct"
    assert grade(question, "Revenue was either $5,000 million or $6,000 million.", [], rules).verdict != "correct"


def test_a_denied_money_figure_is_not_the_key(rules):
    question = Question(id="q", text="What was FY2022 revenue (in USD millions)?", money_key="$5,000 million")
    assert grade(question, "Revenue was $5,000 million, not $6,000 million.", [], rules).verdict == "correct"
    assert grade(question, "Revenue was $6,000 million, not $5,000 million.", [], rules).verdict != "correct"


def test_the_reader_is_shown_what_was_not_asserted(rules):
    """The hedge is recorded with the grade, and its money figure is not marked as the key."""
    question = Question(id="q", text="What was FY2022 revenue (in USD millions)?", money_key="$5,000 million")
    answer = "Revenue was either $5,000 million or $6,000 million."
    marks = grade(question, answer, [], rules).matched
    (hedge,) = [m for m in marks if m["kind"] == "unasserted"]
    assert answer[hedge["start"] : hedge["end"]] == "either $5,000 million or $6,000 million"
    assert {m["needle"]: m["role"] for m in marks if m["kind"] == "money"} == {
        "$5,000 million": "mentioned",
        "$6,000 million": "mentioned",
    }


def test_the_review_marks_a_hedge_as_not_asserted(rules):
    """The report reads the stored mark: the hedge is shown like the sources' voice, with its reason."""
    import json

    from ragpipe.review.annotate import annotate

    answer = "It was either Ohio or Iowa."
    runs = annotate(answer, json.dumps(list(grade(ohio(), answer, [], rules).matched)))
    (hedged,) = [r for r in runs if "src" in r.marks]
    assert hedged.text == "either Ohio or Iowa" and "not asserted" in hedged.notes[0]
