"""The grader measured against a labelled set: grade its answers, compare with the people, and with
`ablate`, what each check earns. Nothing is written."""

from __future__ import annotations

import pandas as pd

from ragpipe.answering.labels import HUMAN_CLASSES
from ragpipe.grader_agreement.ablation import ablation
from ragpipe.grader_agreement.agreement import agreement_report, labelled_frame, on_the_labels_scale
from ragpipe.grader_agreement.trust_report import trust_report
from ragpipe.grading.grade_table import grade_answers

LETTER = dict(zip(HUMAN_CLASSES, "CIR"))  # Correct Answer, Incorrect Answer, Refusal


def labelled_agreement(
    answers: pd.DataFrame,
    questions: pd.DataFrame,
    needles: pd.DataFrame,
    rules,
    ablate: bool = False,
    calibrate: tuple[int, int, int] | None = None,
    judge=None,
    verdicts: bool = False,
) -> dict:
    """Grade labelled `answers` under `rules` and report agreement with the people; with `ablate`, also
    what each check earns (grader_agreement/ablation.py); with `calibrate` = (labels, repeats, seed), how
    well that many labels would estimate people's accuracy (grader_agreement/calibration_sim.py); with
    `judge` (grader_agreement/judge_agreement.py: JudgeRun), the grades are the combined ones, and the report
    says what rules alone, the judge alone and both agree. With `verdicts`, each answer's classes, the
    person's then the grader's on the labels' scale (`{answer_id: "CI"}`): what two runs compare for flips."""
    grades = grade_answers(answers, questions, needles, rules)
    version = rules.version
    judged = None
    if judge is not None:
        from ragpipe.grader_agreement.judge_agreement import figures, judged_report
        from ragpipe.grader_agreement.judge_track_record import track_record_report

        combined = judge.apply(grades, answers, questions, rules)
        judged = judged_report(grades, combined, answers, questions)
        judged["track_record"] = track_record_report(judge, grades, combined, answers, questions, figures)
        grades, version = combined, combined["grader_version"].iloc[0] if len(combined) else version
    frame = labelled_frame(grades, answers, questions)
    folded, _ = on_the_labels_scale(frame)
    report = {"grader_version": version, **agreement_report(frame)}
    report |= trust_report(frame, rules.trust.alpha, rules.trust.delta)
    if judged is not None:
        report["judge"] = {"name": judge.identity.name, "id": judge.identity.id, **judged}
    if verdicts:
        report["verdicts"] = {
            a: LETTER[h] + LETTER[g] for a, h, g in zip(folded["answer_id"], folded["human"], folded["grader"])
        }
    if ablate:
        report["ablation"] = ablation(answers, questions, needles, rules, folded)
    if calibrate is not None:
        from ragpipe.grader_agreement.calibration_sim import simulate_calibration

        report["calibration"] = simulate_calibration(frame, *calibrate)
    return report


def financebench_labelled(
    pages: pd.DataFrame, manifest, labels_dir, rules
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(grades, answers, questions) of a folder of FinanceBench's labelled files under `rules`: questions
    and needles derived afresh from the ingested `pages` with the current code."""
    answers, questions, needles = _financebench_inputs(pages, manifest, labels_dir)
    return grade_answers(answers, questions, needles, rules), answers, questions


def _financebench_inputs(pages: pd.DataFrame, manifest, labels_dir) -> tuple:
    from ragpipe.answering.labels import read_labeled_folder
    from ragpipe.answering.run import imported_answers
    from ragpipe.corpus.adapters import read_corpus_questions
    from ragpipe.corpus.needle_mining import mine_needles
    from ragpipe.corpus.questions import questions_frame

    loaded = read_corpus_questions(manifest, set(pages["doc_id"]))
    questions = questions_frame(manifest.name, loaded.questions)
    needles = mine_needles(manifest.name, loaded.questions, pages)
    labels, _ = read_labeled_folder(labels_dir)
    labels = labels[labels["question_id"].isin(set(questions["question_id"]))]
    labels = labels[~labels.duplicated(["answer_set", "question_id"])]
    return imported_answers(labels, manifest.name, "adhoc"), questions, needles


def agreement_for_labels(
    pages: pd.DataFrame,
    manifest,
    labels_dir,
    rules,
    ablate: bool = False,
    calibrate: tuple | None = None,
    judge=None,
    verdicts: bool = False,
) -> dict:
    """Agreement of `rules` with a folder of labelled answers. Questions and needles
    are derived afresh from the ingested `pages` with the current code; nothing is written."""
    answers, questions, needles = _financebench_inputs(pages, manifest, labels_dir)
    return labelled_agreement(answers, questions, needles, rules, ablate, calibrate, judge, verdicts)
