"""What a judge keeps: rule verdicts, by question kind and deciding rule, it is neither asked about nor
allowed to overturn; another list is another grader version."""

from __future__ import annotations

import pandas as pd
import pytest
from pydantic import ValidationError

from ragpipe.corpus.questions import Question, questions_frame
from ragpipe.grading.rules import load_rules
from ragpipe.judge import JudgeConfig, KeepRule, apply_judgments, identity_of, judged_rules, parse_keep
from ragpipe.judge.apply import eligible
from ragpipe.judge.judgment import input_key
from ragpipe.judge.keep import keep_id


def test_a_keep_rule_matches_by_kind_and_by_rule_or_prefix():
    exact, prefix, kind_only = (
        parse_keep("ambiguous:ambiguous.declined"),
        parse_keep(":decline.*"),
        parse_keep("negative:"),
    )
    assert exact.holds("ambiguous", "ambiguous.declined") and not exact.holds("negative", "ambiguous.declined")
    assert not exact.holds("ambiguous", "ambiguous.declined.more")
    assert prefix.holds("answerable", "decline.phrase") and not prefix.holds("answerable", "needles.money")
    assert kind_only.holds("negative", None) and not kind_only.holds("answerable", "x")
    assert exact.written() == "ambiguous:ambiguous.declined" and kind_only.written() == "negative:"


@pytest.mark.parametrize("text", ["ambiguous", ":", "odd:rule"])
def test_a_keep_rule_that_says_nothing_or_names_no_kind_is_refused(text):
    with pytest.raises((ValueError, ValidationError)):
        parse_keep(text)


def test_what_a_judge_keeps_enters_the_grader_version_in_any_order():
    rules = load_rules()
    judge = JudgeConfig(name="j", base_url="http://127.0.0.1:1/v1", model="m")
    plain = judged_rules(rules, identity_of(judge))
    a, b = KeepRule(kind="ambiguous"), KeepRule(rule="decline.*")
    kept = judged_rules(rules, identity_of(judge), [a, b])
    assert kept.version == f"{plain.version}+{keep_id([b, a])}" and "# keeps: " in kept.rules_text
    assert identity_of(judge.model_copy(update={"keep": [a]})) == identity_of(judge)  # its judgments are reused


def _graded(kind: str, rule: str, verdict: str):
    q = Question(id="q", text="Is it safe to kill a Python process?", kind=kind, gold_answer="yes")
    text = "I cannot help with that."
    grades = pd.DataFrame(
        {
            "answer_id": ["a"],
            "question_id": ["q"],
            "kind": [kind],
            "error": [None],
            "verdict": [verdict],
            "declined": [True],
            "failure": [None],
            "rule": [rule],
            "firm": [False],
            "ungradable": [False],
        }
    )
    answers = pd.DataFrame({"answer_id": ["a"], "answer": [text]})
    judgments = pd.DataFrame({"input_key": [input_key(q, text)], "verdict": ["correct"], "reason": ["answered"]})
    return grades, answers, questions_frame("c", [q]), judgments


def test_a_kept_verdict_is_not_asked_about_and_a_stored_judgment_does_not_overturn_it():
    grades, answers, questions, judgments = _graded("ambiguous", "ambiguous.declined", "correct")
    keep = [parse_keep("ambiguous:ambiguous.declined")]
    assert list(eligible(grades, "tentative")) == [True] and list(eligible(grades, "tentative", keep)) == [False]
    overturned = apply_judgments(grades, answers, questions, judgments)
    assert overturned.iloc[0]["rule"] == "judge.correct" and not overturned.iloc[0]["declined"]
    standing = apply_judgments(grades, answers, questions, judgments, keep=keep)
    assert standing.iloc[0]["rule"] == "ambiguous.declined" and standing.iloc[0]["declined"]
    other_kind = apply_judgments(*_graded("answerable", "ambiguous.declined", "wrong"), keep=keep)
    assert other_kind.iloc[0]["judge_verdict"] == "correct"  # kept for ambiguous questions only
