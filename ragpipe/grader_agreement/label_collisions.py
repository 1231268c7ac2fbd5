"""The collision audit across registers: every decline rule run over answers people judged.

A decline rule written for one register (filings: "you would need to look at the 10-K") can fire on
answers people accept in another (chat: "To stop a car, you would need to press the brake"). For each
rule and each labelled set this counts the accepted answers it fires on, how many of those the grader
declines (the collisions that cost), and the refusals it fires on (what it is for), with examples.
A rule that fires on accepted answers outside its register is to be scoped or dropped.

"The grader declines" is the decline check's own verdict where the set can be graded (a labelled JSONL
file, the warehouse's labelled answers: questions and needles are at hand), so an answer whose opening
gives the key or the none asked for before a decline phrase is no collision (checks/decline/key_given.py,
none_given.py). A folder of FinanceBench's labels carries no questions: there, the decision alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ragpipe.answering.labels import HUMAN_CLASSES, read_labeled_folder
from ragpipe.grading.checks import decline
from ragpipe.grading.grade_table import grade_answers

CORRECT, _, REFUSAL = HUMAN_CLASSES


@dataclass(frozen=True)
class JudgedAnswers:
    """One labelled set as the audit reads it: question text, answer and the person's class per row."""

    name: str
    rows: pd.DataFrame  # question, answer, human
    # (answers, questions, needles), the answers row for row with `rows`: the set can be graded
    gradable: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame] | None = None


def judged_answers(path: Path) -> JudgedAnswers:
    """A labelled JSONL file (generic format) or a folder of FinanceBench's labelled files. A folder's
    rows carry no question text: the premise rebuttal (which needs it) does not count there."""
    if path.is_dir():
        labels, _ = read_labeled_folder(path)
        rows = pd.DataFrame({"question": "", "answer": labels["answer"].fillna(""), "human": labels["label"]})
        return JudgedAnswers(path.name, rows)
    from ragpipe.corpus.gold_text import gold_text_needles
    from ragpipe.corpus.questions import questions_frame
    from ragpipe.grader_agreement.labelled_jsonl import CORPUS, read_labelled_jsonl

    labelled = read_labelled_jsonl(path)
    text = {q.id: q.text for q in labelled.questions}
    a = labelled.answers.reset_index(drop=True)
    rows = pd.DataFrame({"question": a["question_id"].map(text), "answer": a["answer"], "human": a["label"]})
    graded = (a, questions_frame(CORPUS, labelled.questions), gold_text_needles(CORPUS, labelled.questions))
    return JudgedAnswers(path.stem, rows, graded)


def _declined(judged: JudgedAnswers, rules, accepted: pd.DataFrame) -> list[bool]:
    """Whether the grader declines each accepted answer: the decline check's verdict where the set can be
    graded, else the decision on the answer and its question alone."""
    if judged.gradable is None:
        return [decline.declines(a, rules, q) for q, a in zip(accepted["question"], accepted["answer"])]
    answers, questions, needles = judged.gradable
    mine = answers.loc[accepted.index]
    grades = grade_answers(mine, questions, needles, rules)
    declined = dict(zip(grades["answer_id"], grades["declined"]))
    return [bool(declined[i]) for i in mine["answer_id"]]


def label_collisions(rules, sets: list[JudgedAnswers], proposed: Sequence[str] = (), examples: int = 2) -> list[dict]:
    """One row per (rule, set) where the rule fires on an accepted answer, in the rules' order."""
    named = decline.named_rules(rules, list(proposed))
    out = []
    for judged in sets:
        rows = judged.rows
        accepted = rows[rows["human"] == CORRECT]
        refusals = rows[rows["human"] == REFUSAL]
        declined = _declined(judged, rules, accepted)
        for rule in named:
            hits = [i for i, (q, a) in enumerate(zip(accepted["question"], accepted["answer"])) if rule.fires(a, q)]
            if not hits:
                continue
            costs = [i for i in hits if declined[i]]
            out.append(
                {
                    "section": rule.section,
                    "rule": rule.name,
                    "set": judged.name,
                    "accepted": len(accepted),
                    "fires_on_accepted": len(hits),
                    "declined_accepted": len(costs),
                    "fires_on_refusals": sum(
                        rule.fires(a, q) for q, a in zip(refusals["question"], refusals["answer"])
                    ),
                    "refusals": len(refusals),
                    "examples": [accepted["answer"].iloc[i][:300] for i in (costs or hits)[:examples]],
                }
            )
    return out


def warehouse_judged(conn) -> list[JudgedAnswers]:
    """The labelled answers the warehouse holds (imported with people's verdicts), one set per corpus;
    none without a warehouse (`conn` None)."""
    from ragpipe.warehouse.tables import table_exists

    if conn is None or not (table_exists(conn, "answers") and table_exists(conn, "questions")):
        return []
    from ragpipe.warehouse.tables import read_partition

    frame = conn.execute(
        "SELECT a.*, q.text AS question, a.label AS human FROM answers a "
        "JOIN questions q USING (corpus, question_id) WHERE a.label IS NOT NULL ORDER BY a.corpus, a.answer_id"
    ).df()
    out = []
    for corpus, rows in frame.groupby("corpus", sort=True):
        rows = rows.reset_index(drop=True).fillna({"answer": ""})
        questions = read_partition(conn, "questions", {"corpus": corpus})
        needles = read_partition(conn, "needles", {"corpus": corpus}) if table_exists(conn, "needles") else None
        gradable = None if needles is None else (rows.drop(columns=["question", "human"]), questions, needles)
        out.append(JudgedAnswers(f"warehouse:{corpus}", rows[["question", "answer", "human"]], gradable))
    return out
