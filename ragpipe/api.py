"""ragpipe from Python, for a notebook or a test suite: no corpus, no warehouse, nothing written.

    import ragpipe
    grades = ragpipe.evaluate("questions.jsonl", "answers.jsonl")   # or lists of dicts, or DataFrames
    ragpipe.summary(grades)                      # counts that add up, accuracy over the graded
    ragpipe.compare(grades_a, grades_b)          # B against A, paired by question, with its interval
    ragpipe.agreement("labelled.jsonl")          # the grader measured against people's labels

Each reads its rows through the same readers as the commands (`ragpipe grade`, `compare`,
`agreement`), so a question line is graded the same way everywhere. A bad row costs that row:
it is reported in `frame.attrs["problems"]` and, by default, as a warning naming source, line and
field (`on_problem="raise"` makes it an error instead).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import pandas as pd

from ragpipe.inputs.problems import Problem

if TYPE_CHECKING:  # loaded in the functions' bodies: `import ragpipe` stays light
    from ragpipe.grader_agreement.result import AgreementResult
    from ragpipe.grading.summary import GradeCounts
    from ragpipe.scoring.compare_result import CompareResult

Rows: TypeAlias = str | Path | pd.DataFrame | Iterable[Mapping]


class InputProblems(ValueError):
    """Rows that could not be used, each naming its source, line and field."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def _fields(model) -> set[str]:
    """The names a pydantic model reads: its fields and their aliases."""
    names = set(model.model_fields)
    for info in model.model_fields.values():
        alias = info.validation_alias
        names |= set(getattr(alias, "choices", [alias] if isinstance(alias, str) else []))
    return names


def _rows(rows: Rows, what: str, fields: set[str] | None = None) -> tuple[list[tuple[int, dict]], str, list]:
    """(line, raw row) pairs, the source's name and the problems of reading it: a JSONL (or, for
    questions, YAML) file by path, a DataFrame (line = position + 1) or an iterable of mappings.

    A DataFrame's columns not among `fields` are left out, with a warning naming them: a table from a
    notebook carries columns of its own, and one of them once cost every row. A line of a file, or a
    mapping, is one row's own say, and an unknown key in it stays that row's problem (a typo)."""
    if rows is None or isinstance(rows, bytes):
        raise TypeError(f"{what}: expected a path, a DataFrame or rows of mappings, not {type(rows).__name__}")
    if isinstance(rows, str | Path):
        from ragpipe.corpus.questions import CSV_LISTS
        from ragpipe.inputs.rows import ANSWER_LISTS, ANSWER_NUMBERS, read_rows

        path = Path(rows)
        if not path.is_file():
            raise FileNotFoundError(f"{what}: no file {path}")
        problems: list[Problem] = []  # JSON Lines, or CSV (a list cell's items separated by `;`)
        return read_rows(path, problems, (*CSV_LISTS, *ANSWER_LISTS), ANSWER_NUMBERS), str(path), problems
    if isinstance(rows, pd.DataFrame):
        from ragpipe.warehouse.nulls import records

        extra = [str(c) for c in rows.columns if fields is not None and c not in fields]
        if extra:
            warnings.warn(f"{what}: column(s) {', '.join(extra)} are not {what} fields: left out", stacklevel=4)
            rows = rows.drop(columns=extra)
        rows = [{k: v for k, v in r.items() if v is not None} for r in records(rows)]
    if not isinstance(rows, Iterable):
        raise TypeError(f"{what}: expected a path, a DataFrame or rows of mappings, not {type(rows).__name__}")
    return list(enumerate(rows, 1)), f"<{what}>", []


def _rules(rules):
    """The packaged rules, rules read from a file, or a Rules object as given."""
    from ragpipe.grading.rules import Rules, load_rules

    if rules is None or isinstance(rules, str | Path):
        from ragpipe.warehouse.settings import rules_path

        return load_rules(Path(rules) if rules is not None else rules_path())
    if isinstance(rules, Rules):
        return rules
    raise TypeError(f"rules: expected None, a path or ragpipe.grading.rules.Rules, not {type(rules).__name__}")


def _said(problems: list[Problem], on_problem: str) -> None:
    if on_problem not in ("warn", "raise", "ignore"):
        raise ValueError(f"on_problem: expected 'warn', 'raise' or 'ignore', not {on_problem!r}")
    if problems and on_problem == "raise":
        raise InputProblems(problems)
    if problems and on_problem == "warn":
        warnings.warn(f"{len(problems)} row(s) skipped:\n{InputProblems(problems)}", stacklevel=3)


def evaluate(
    questions: Rows,
    answers: Rows,
    rules=None,
    on_problem: str = "warn",
    judge: str | None = None,
    judge_on: str = "tentative",
) -> pd.DataFrame:
    """One row per answer: its verdict, whether it declined, the rule that decided and the grader
    version, graded as `ragpipe grade` grades (needles mined from each gold answer).

    `questions`: lines as docs/grader.md's question format (`id`, `question`, `kind`, `gold_answer`,
    ...); `answers`: `question_id`, `answer`, optional `citations`. `judge`: a `judges:` entry to grade
    with too, as `ragpipe grade --judge` does (its stored judgments read from the warehouse, the rest
    asked; `judge_on`: tentative or all); the grader version then names it. The frame's `attrs` hold
    `problems` (rows skipped), `unanswered` (question ids no answer names) and, with a judge,
    `judgments` (those asked now: nothing is written)."""
    from ragpipe.corpus.questions import Question, questions_from_rows, read_questions
    from ragpipe.grading.adhoc import answer_lines, grade_lines, grades_frame

    if isinstance(questions, str | Path):  # JSONL or a corpus's YAML, read as `ragpipe grade` reads them
        if not Path(questions).is_file():
            raise FileNotFoundError(f"questions: no file {questions}")
        loaded = read_questions(Path(questions))
    else:
        loaded = questions_from_rows(*_rows(questions, "questions", _fields(Question))[:2])
    problems = list(loaded.problems)
    a_rows, a_source, a_problems = _rows(answers, "answers")  # AnswerLine ignores other keys itself
    problems += a_problems
    lines = answer_lines(a_rows, a_source, problems)
    graded = grade_lines(loaded.questions, lines, _rules(rules), a_source)
    problems += graded.problems
    _said(problems, on_problem)
    if graded.notes and on_problem == "warn":  # graded, not skipped: said apart from the skipped rows
        warnings.warn(f"{len(graded.notes)} row(s) graded with a note:\n{InputProblems(graded.notes)}", stacklevel=2)
    rows, asked = graded.rows, None
    if judge is not None:
        rows, asked = _judged(rows, graded, judge, judge_on, _rules(rules))
    frame = grades_frame(rows)
    frame.attrs.update(
        problems=[str(p) for p in problems], unanswered=graded.unanswered, notes=[str(n) for n in graded.notes]
    )
    if asked is not None:
        frame.attrs["judgments"] = asked
    return frame


def _judged(rows: list[dict], graded, name: str, judge_on: str, rules) -> tuple[list[dict], pd.DataFrame]:
    """`rows` with the judge `name` applied as `ragpipe grade --judge` applies it, and the judgments asked."""
    from ragpipe.grader_agreement.judge_agreement import JudgeRun
    from ragpipe.judge import (
        JUDGE_ON,
        identity_of,
        judge_named,
        judge_rows,
        judged_rules,
        judgments_frame,
        warehouse_judgments,
    )
    from ragpipe.warehouse.settings import judges_path

    if judge_on not in JUDGE_ON:
        raise ValueError(f"judge_on takes {' or '.join(JUDGE_ON)}, not {judge_on!r}")
    config = judge_named(judges_path(), name)  # a JudgeError names the judges it knows
    identity = identity_of(config)
    run = JudgeRun(
        identity=identity,
        config=config,
        stored=warehouse_judgments(identity.id),
        judge_on=judge_on,
        keep=config.keeps,
        budget=config.budget,
    )
    judged = judge_rows(rows, graded.texts, graded.questions, run)
    version = judged_rules(rules, identity, run.keep, run.budget).version
    new = run.new if run.new is not None else judgments_frame([])
    return [{**r, "grader_version": version} for r in judged], new


def summary(grades: pd.DataFrame) -> GradeCounts:
    """Counts of an `evaluate` frame that add up: answers = correct + partial + wrong + ungradable;
    accuracy = correct / graded; declined; unanswered (from the frame's attrs). A `GradeCounts`: a mapping
    of those counts, with `summary()`, the `grade` command's last line."""
    from ragpipe.grading.summary import GradeCounts, grade_counts

    return GradeCounts(grade_counts(grades.to_dict("records"), len(grades.attrs.get("unanswered", ()))))


def compare(a: pd.DataFrame, b: pd.DataFrame, a_name: str = "A", b_name: str = "B") -> CompareResult:
    """B against A on the questions either answered (`evaluate` frames, or grades read from the
    warehouse; a question one left unanswered counts against it): wins, losses, ties, accuracy difference
    B - A with a seeded paired-bootstrap 95% interval, exact McNemar p, and every question that flips
    (docs/compare.md). A `CompareResult`: a mapping of those figures, with `summary()`, one sentence."""
    from ragpipe.scoring.compare import compare as compare_sets
    from ragpipe.scoring.compare_result import CompareResult

    return CompareResult(compare_sets(a_name, a, b_name, b))


def agreement(labelled: Rows, rules=None, on_problem: str = "warn") -> AgreementResult:
    """The grader against people: grade each labelled answer (docs/agreement.md's format: question,
    gold_answer, answer, label, system) and report accuracy, Cohen's kappa, refusal F1, false
    "correct" and the confusion, as `ragpipe agreement --labels FILE --json` does: an `AgreementResult`
    (a mapping of that report, with `.frame`, one row per scope, and `.summary()`, one line)."""
    from ragpipe.grader_agreement.labelled_jsonl import agreement_for_set, labelled_rows
    from ragpipe.grader_agreement.result import AgreementResult

    rows, source, problems = _rows(labelled, "labels")
    name = Path(labelled).name if isinstance(labelled, str | Path) else ""
    found = labelled_rows(rows, source, name)
    problems += found.problems
    _said(problems, on_problem)
    report = agreement_for_set(found, source, _rules(rules))
    return AgreementResult({**report, "problems": [str(p) for p in problems]})
