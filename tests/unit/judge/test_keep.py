"""What a judge keeps: rule verdicts, by question kind and deciding rule, it is neither asked about nor
allowed to overturn; another list is another grader version."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from pydantic import ValidationError

from ragpipe.corpus.questions import Question, load_questions, questions_frame
from ragpipe.grading import outcomes
from ragpipe.grading.grader import grade
from ragpipe.grading.rules import load_rules
from ragpipe.judge import JudgeConfig, KeepRule, apply_judgments, identity_of, judged_rules, parse_keep
from ragpipe.judge.apply import eligible
from ragpipe.judge.judgment import input_key
from ragpipe.judge.keep import keep_id


def test_a_keep_rule_matches_by_kind_and_by_rule_or_prefix():
    exact, prefix, kind_only = (
        parse_keep("ambiguous:ambiguous.declined"),
        parse_keep(":needles.mined.*"),
        parse_keep("negative:"),
    )
    assert exact.holds("ambiguous", "ambiguous.declined") and not exact.holds("negative", "ambiguous.declined")
    assert not exact.holds("ambiguous", "ambiguous.declined.more")
    assert prefix.holds("answerable", "needles.mined.some") and not prefix.holds("answerable", "needles.authored.all")
    assert kind_only.holds("negative", None) and not kind_only.holds("answerable", "x")
    assert exact.written() == "ambiguous:ambiguous.declined" and kind_only.written() == "negative:"


@pytest.mark.parametrize("text", ["ambiguous", ":", "odd:rule"])
def test_a_keep_rule_that_says_nothing_or_names_no_kind_is_refused(text):
    with pytest.raises((ValueError, ValidationError)):
        parse_keep(text)


@pytest.mark.parametrize("text", [":nonexistent.rule", ":decline.*", ":*", "answerable:.*", ":needles.money"])
def test_a_keep_rule_naming_no_rule_a_grade_can_carry_is_refused_naming_the_rules(text):
    """A kept rule that no grade carries would be accepted and never match (the docs' own `decline.*` did
    not); `*` keeps everything, so the judge would never be asked."""
    with pytest.raises(ValueError) as refused:
        parse_keep(text)
    assert repr(text.partition(":")[2]) in str(refused.value)
    with pytest.raises(ValidationError):
        JudgeConfig(name="j", base_url="http://127.0.0.1:1/v1", model="m", keep=[{"rule": text.partition(":")[2]}])


@pytest.mark.parametrize("rule", sorted(outcomes.rule_ids()))
def test_every_rule_a_grade_can_carry_may_be_kept(rule):
    assert parse_keep(f":{rule}").rule == rule and parse_keep(f":{rule.split('.')[0]}.*").holds(None, rule)


def test_the_rules_the_grader_writes_are_in_the_catalogue():
    """The catalogue is what grades say: every rule of the demo's answers graded here is in it."""
    rules = load_rules()
    said = set()
    for q in load_questions(Path(__file__).parents[3] / "corpora" / "demo" / "questions.yaml"):
        for text in (q.gold_answer or "", "I could not find that in the documents.", "It is $1.00.", ""):
            said.add(grade(q, text, [], rules).rule)
    assert said and said <= outcomes.rule_ids(), said - outcomes.rule_ids()


def test_what_a_judge_keeps_enters_the_grader_version_in_any_order():
    rules = load_rules()
    judge = JudgeConfig(name="j", base_url="http://127.0.0.1:1/v1", model="m")
    plain = judged_rules(rules, identity_of(judge))
    a, b = KeepRule(kind="ambiguous"), KeepRule(rule="needles.*")
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
