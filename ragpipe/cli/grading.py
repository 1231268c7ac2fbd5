"""`ragpipe grade` and `ragpipe agreement`: the grader on any answers, and measured against people."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import typer
from rich.table import Table
from rich.text import Text

from ragpipe.cli.app import GRADER, app, console, loaded_rules, say
from ragpipe.cli.fitted import print_fitted
from ragpipe.cli.judge import JUDGE_HELP, JUDGE_ON_HELP
from ragpipe.cli.run import financebench_pages
from ragpipe.warehouse.settings import corpora_dir, judges_path, rules_path

BUDGET_HELP = (
    "with a judge: ask about at most this share of the answers, the least confident first "
    "(as `budget:` in a judge's entry; 0: no cap)"
)


@app.command(rich_help_panel=GRADER)
def grade(
    questions: Path = typer.Option(
        ..., "--questions", exists=True, dir_okay=False, help="JSONL: id, question, kind, gold_answer, ..."
    ),
    answers: Path = typer.Option(
        ..., "--answers", exists=True, dir_okay=False, help="JSONL: question_id, answer, citations"
    ),
    rules_file: Path | None = typer.Option(
        None, "--rules", exists=True, dir_okay=False, help="grader rules (default: the packaged rules)"
    ),
    as_jsonl: bool = typer.Option(
        False, "--jsonl", "--json", help="JSON Lines: one JSON object per answer, one per line (no summary)"
    ),
    judge: str | None = typer.Option(None, "--judge", help=JUDGE_HELP),
    judge_on: str = typer.Option("tentative", "--judge-on", help=JUDGE_ON_HELP),
    judge_budget: float | None = typer.Option(None, "--judge-budget", min=0.0, max=1.0, help=BUDGET_HELP),
) -> None:
    """Grade any answers against any questions with the current rules: no corpus, no warehouse.
    Needles are mined from each gold answer, as `agreement` does for a labels file."""
    from ragpipe.grading.adhoc import grade_files
    from ragpipe.grading.rules import RulesError, load_rules

    try:
        rules = load_rules(rules_file or rules_path())
        graded = grade_files(questions, answers, rules)
    except RulesError as exc:
        console.print(f"{exc}", style="red")
        raise typer.Exit(2) from None
    for problem in graded.problems:
        say(f"skipped {problem}", err=True)
    for note in graded.notes:
        say(f"graded, note: {note}", err=True)
    if graded.unanswered:
        shown = ", ".join(graded.unanswered[:10]) + (" ..." if len(graded.unanswered) > 10 else "")
        say(f"warning: {len(graded.unanswered)} question(s) have no answer: {shown}", err=True)
    rows = graded.rows
    if judge is not None:
        from ragpipe.judge import judge_rows, judged_rules

        run = _judge_run(judge, judge_on, None, budget=judge_budget, held_by_record=True)
        rows = judge_rows(rows, graded.texts, graded.questions, run)
        version = judged_rules(rules, run.identity, run.keep, run.budget).version
        rows = [{**r, "grader_version": version} for r in rows]
        _after_judging(run)
    if as_jsonl:
        for row in rows:
            say(json.dumps(row, sort_keys=True))
        return
    columns = ("question_id", "verdict", "firm", "declined", "money_question", "failure", "rule")
    table = Table(title=f"grades ({len(rows)} answers)")
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*(str(row[c]) for c in columns))
    console.print(table)
    from ragpipe.grading.summary import grade_counts, summary_line

    console.print(summary_line(grade_counts(rows, len(graded.unanswered))))


@app.command(rich_help_panel=GRADER)
def agreement(
    labels: Path = typer.Option(
        ...,
        "--labels",
        exists=True,
        help="a labelled-answers JSONL file (generic format, docs/agreement.md), "
        "or a folder of FinanceBench's upstream files",
    ),
    data: Path | None = typer.Option(
        None, "--data", exists=True, file_okay=False, help="the FinanceBench folder (with a folder of labels)"
    ),
    rules_file: Path | None = typer.Option(
        None, "--rules", exists=True, dir_okay=False, help="grader rules (default: the current rules)"
    ),
    as_json: bool = typer.Option(False, "--json"),
    verdicts: bool = typer.Option(
        False, "--verdicts", help="with --json: each answer's classes, the person's then the grader's (for flips)"
    ),
    ablate: bool = typer.Option(
        False, "--ablate", help="also grade with each check switched off in turn: what each check earns"
    ),
    as_markdown: bool = typer.Option(False, "--markdown", help="print Markdown tables (for docs and reviews)"),
    calibrate: int | None = typer.Option(
        None, "--calibrate", min=2, help="simulate estimating people's accuracy from N labels per answer set"
    ),
    repeats: int = typer.Option(200, "--repeats", min=1, help="draws of N labels per set (with --calibrate)"),
    seed: int = typer.Option(0, "--seed", help="the draws' seed (with --calibrate)"),
    judge: str | None = typer.Option(None, "--judge", help=JUDGE_HELP),
    judge_on: str = typer.Option("tentative", "--judge-on", help=JUDGE_ON_HELP),
    judgments: Path | None = typer.Option(
        None,
        "--judgments",
        exists=True,
        dir_okay=False,
        help="verdicts recorded elsewhere (JSON lines): applied "
        "where the judge would be asked; with --judge, that judge's lines",
    ),
    keep: list[str] = typer.Option(
        None,
        "--keep",
        help="with a judge: rule verdicts it may not overturn, KIND:RULE (repeatable; either may be empty; "
        "RULE may end in *), as under `keep:` in a judge's entry: e.g. ambiguous:ambiguous.declined or negative:",
    ),
    judge_budget: float | None = typer.Option(None, "--judge-budget", min=0.0, max=1.0, help=BUDGET_HELP),
    record: bool = typer.Option(
        False,
        "--record",
        help="with --judge: write the judge's track record on these labels (judge-records/ beside the judges' "
        "file): grading then leaves the cells it does not win to the rules",
    ),
) -> None:
    """Grade human-labelled answers with the current rules and report agreement with the people.

    A JSONL file needs nothing else: its gold answers are the gold text. A folder of FinanceBench
    files reuses the warehouse's ingested FinanceBench pages (ingesting them first if absent);
    questions, needles and grades are derived afresh with the current code and rules."""
    from ragpipe.corpus.manifest import list_corpora

    rules = loaded_rules(rules_file)
    simulation = None if calibrate is None else (calibrate, repeats, seed)
    if record and (judge is None or judgments is not None):
        raise typer.BadParameter(
            "--record writes a configured judge's track record: give --judge NAME (not --judgments)"
        )
    run = _judge_run(judge, judge_on, judgments, keep or [], judge_budget)
    if labels.is_file():
        from ragpipe.grader_agreement.labelled_jsonl import agreement_for_jsonl

        try:
            report = agreement_for_jsonl(labels, rules, ablate, simulation, run, verdicts)
        except (LookupError, ValueError) as exc:
            console.print(f"{exc}", style="red")
            raise typer.Exit(1) from None
        for problem in report["problems"]:
            say(f"skipped {problem}", err=True)
        _after_judging(run)
        if record:
            _write_record(run, report, labels)
        _print_agreement(report, as_json, as_markdown)
        return
    if data is None:
        console.print(
            "--labels is a folder of FinanceBench files: give the FinanceBench folder with --data", style="red"
        )
        raise typer.Exit(2)
    from ragpipe.grader_agreement.labelled_agreement import agreement_for_labels

    pages = financebench_pages(data)
    manifest = list_corpora(corpora_dir())["financebench"]
    report = agreement_for_labels(pages, manifest, labels, rules, ablate, simulation, run, verdicts)
    _after_judging(run)
    if record:
        _write_record(run, report, labels)
    _print_agreement(report, as_json, as_markdown)


def _judge_run(
    judge: str | None,
    judge_on: str,
    judgments: Path | None,
    keep: Sequence[str] = (),
    budget: float | None = None,
    held_by_record: bool = False,
):
    """The judge `agreement` grades with (and `grade`): recorded verdicts (`--judgments`), a configured judge,
    or none; keeping its configuration's `keep:` list, each `--keep` and, with `held_by_record`, the cells its
    track record holds; asked about at most `budget` of the answers (else its configuration's `budget:`)."""
    if judge is None and judgments is None:
        if keep:
            raise typer.BadParameter("--keep says what a judge may not overturn: give --judge or --judgments")
        return None
    from ragpipe.cli.judge import checked_judge_on, configured
    from ragpipe.grader_agreement.judge_agreement import JudgeRun
    from ragpipe.judge import parse_keep, recorded_identity, warehouse_judgments

    judge_on = checked_judge_on(judge_on)
    try:
        extra = tuple(parse_keep(k) for k in keep)
    except ValueError as exc:  # pydantic's ValidationError is one: its first error's words
        said = exc.errors()[0]["msg"] if hasattr(exc, "errors") else str(exc)
        raise typer.BadParameter(f"--keep: {said}") from None
    if judgments is not None:
        identity = recorded_identity(judge) if judge else None
        return JudgeRun(
            identity=identity, config=None, judge_on=judge_on, recorded=judgments, keep=extra, budget=budget or None
        )
    assert judge is not None  # neither --judge nor --judgments returned above
    config, identity = configured(judge)
    # `agreement` measures the track record on what the judge is asked about: it keeps the hand-written
    # keep: only, or a held cell, not asked about, would drop out of the record measured again
    keeps = tuple(dict.fromkeys((*(config.keeps if held_by_record else config.keep), *extra)))
    share = budget if budget is not None else config.budget
    return JudgeRun(
        identity=identity,
        config=config,
        stored=warehouse_judgments(identity.id),
        judge_on=judge_on,
        keep=keeps,
        budget=share or None,
    )


def _write_record(run, report: dict, labels: Path) -> None:
    """The judge's track record on these labels, written where loading the judge reads it; said on stderr."""
    import datetime

    from ragpipe.judge import TrackCell, record_path, recorded

    measured = report.get("judge", {}).get("track_record") or {}
    path = record_path(judges_path(), run.identity.id)
    cells = [TrackCell(**c) for c in measured.get("cells", [])]
    source = labels.resolve().name
    today = datetime.date.today().isoformat()
    written = recorded(path, run.identity.name, run.identity.id, source, int(report["n"]), today, cells)
    held = ", ".join(k.written() for k in written.held()) or "none"
    say(f"track record of {run.identity.name} on {source}: {len(cells)} cell(s) -> {path}; held: {held}", err=True)


def _after_judging(run) -> None:
    """Store what the judge was asked (a second run asks nothing) and say what asking came to."""
    if run is None:
        return
    for problem in run.problems:
        say(f"skipped {problem}", err=True)
    if run.config is not None:
        from ragpipe.cli.judge import keep

        keep(run.new)
        say(run.asked.summary(), err=True)


def _print_agreement(report: dict, as_json: bool, as_markdown: bool = False) -> None:
    if as_json:
        say(json.dumps(report, indent=2))
        return
    if as_markdown:
        from ragpipe.grader_agreement.agreement_markdown import report_markdown

        say(report_markdown(report))
        return
    title = f"agreement with people (grader {report['grader_version']}, n={report['n']})"
    columns = ["scope", "accuracy", "kappa", "refusal F1", "false correct", "false correct (numeric)"]
    scopes = [("overall", report)] + list(report["by_question_type"].items()) + list(report["by_file"].items())
    scopes += list(report.get("by_firmness", {}).items())
    rows = []
    for name, r in scopes:
        cells = (r["accuracy"], r["kappa"], r["refusal"]["f1"], r["false_correct"], r["false_correct_numeric"])
        rows.append([name, *("n/a" if c is None else str(c) for c in cells)])
    print_fitted(console, title, columns, rows, names={"scope"})  # a file's name is never broken
    if report.get("by_rule"):
        _print_rules(report["by_rule"])
    if report.get("trust"):
        _print_trust(report)
    if "judge" in report:
        _print_judge(report["judge"])
    if "ablation" in report:
        _print_ablation(report["ablation"])
    if "calibration" in report:
        _print_calibration(report["calibration"])
    scale = report.get("scale", {})
    if scale.get("declines") == "incorrect":
        console.print(
            f"the labels have no refusal class: the grader's {scale['declines_folded']} decline(s) count as incorrect"
        )


def trust_lines(report: dict) -> list[str]:
    """What confidence and firmness mean on a labelled set, in two sentences (docs/trust.md)."""
    t = report["trust"]
    off = "n/a" if t["firm_disagree"] is None else f"{t['firm_disagree']:.1%}"
    lines = [
        f"confidence: ECE {report['ece']:.4f}, AURC {report['aurc']:.4f}; firm {t['firm_share']:.1%} by the shipped "
        f"calibration: people disagree with {off} of them"
    ]
    own = t["own_bound"]
    if own is None:
        lines.append(
            f"these {t['labels']} labels give no bound at alpha {t['alpha']:.0%} (delta {t['delta']:.0%}): "
            "no threshold is shown to hold on this set"
        )
    else:
        lines.append(
            f"these {t['labels']} labels' own bound: firm {own['firm_share']:.1%} at confidence >= "
            f"{own['threshold']:.4f}, people disagree with at most {t['alpha']:.0%} of these "
            f"({1 - t['delta']:.0%} confidence)"
        )
    return lines


def _print_trust(report: dict) -> None:
    for line in trust_lines(report):
        console.print(line)


def _print_rules(rules: dict) -> None:
    """The deciding rules people disagree with, most disagreements first (none: no table)."""
    if not any(r["disagree"] for r in rules.values()):
        return
    table = Table(title="the rules that decided answers people disagree with")
    for column in ("rule", "decided", "people disagree", "people's classes"):
        table.add_column(column)
    for name, r in sorted(rules.items(), key=lambda kv: (-kv[1]["disagree"], kv[0])):
        if r["disagree"]:
            people = ", ".join(f"{c} {k}" for c, k in r["people"].items())
            table.add_row(name, str(r["n"]), str(r["disagree"]), people)
    console.print(table)


def _print_ablation(rows: list[dict]) -> None:
    table = Table(title="each check and reading switched off in turn (earned: answers it moves to the people's class)")
    columns = (
        "check or reading",
        "fired",
        "changed",
        "earned",
        "cost",
        "kappa off",
        "kappa delta",
        "false correct off",
    )
    for column in columns:
        table.add_column(column)
    for r in rows:
        cells = ("fired", "changed", "earned", "cost", "kappa_off", "kappa_delta", "false_correct_off")
        name = r["check"] + (" (reading)" if r.get("what") == "reading" else "")
        table.add_row(name, *("n/a" if r[c] is None else str(r[c]) for c in cells))
    console.print(table)


def _print_calibration(sim: dict) -> None:
    title = f"people's accuracy from {sim['labels']} labels per set ({sim['repeats']} draws, seed {sim['seed']})"
    table = Table(title=title)
    columns = ("answer set", "people", "grader", "bias", "estimate MAE", "coverage", "width", "labels only")
    for column in columns:
        table.add_column(column)
    for name, s in sim["sets"].items():
        cells = ("human_accuracy", "grader_accuracy", "bias", "estimate_mae", "coverage", "width", "width_labels_only")
        table.add_row(name, *(str(s.get(c, "")) for c in cells))
    console.print(table)
    console.print(f"grader order vs people's order: Kendall tau {sim['ranking']['kendall_tau']}")


ZERO_WRONG_MONEY_KEPT = (
    'ZERO-WRONG-MONEY stays the rules\': the judge is never asked about a money.* verdict, and its "correct" '
    "on a money answer that does not state the key decides nothing (docs/judge.md)"
)


def _print_judge(judge: dict) -> None:
    title = f"judge {judge['name']} ({judge['id']}): {judge['judged']} of {judge['n']} answers judged"
    table = Table(title=title + (f", {judge['unparsed']} unparsed" if judge["unparsed"] else ""))
    for column in ("grades", "n", "accuracy", "kappa", "refusal F1", "false correct"):
        table.add_column(column)
    for name, key in (("rules alone", "rules"), ("rules and judge", "combined"), ("judge, on what it judged",
                      "judge_alone"), ("rules, on the same answers", "rules_on_judged"),
                      ("rules and judge held by its track record, out of fold", "held")):  # fmt: skip
        r = judge.get(key) if key != "held" else judge.get("track_record", {}).get("out_of_fold")
        if r:
            cells = (r["n"], r["accuracy"], r["kappa"], r["refusal_f1"], r["false_correct"])
            table.add_row(name, *("n/a" if c is None else str(c) for c in cells))
    console.print(table)
    console.print(Text(ZERO_WRONG_MONEY_KEPT), soft_wrap=True)
    if judge.get("by_kind_rule"):
        _print_moved(judge["by_kind_rule"])


def _print_moved(rows: list[dict]) -> None:
    """Where the judge moved agreement with people, per kind and deciding rule: the numbers a `keep:` list
    is chosen from."""
    columns = ["kind", "rule before the judge", "n", "people agree: rules", "judge", "moved"]
    shown = [
        [r["kind"], r["rule"], str(r["n"]), str(r["rules_agree"]), str(r["judge_agree"]), f"{r['moved']:+d}"]
        for r in rows
    ]
    title = "where the judge moved agreement with people (answers it decided)"
    print_fitted(console, title, columns, shown, names={"kind", "rule before the judge"})
    hurt = [f"{r['kind']}:{r['rule']}" for r in rows if r["moved"] < 0]
    if hurt:
        console.print(
            Text(
                f"the judge lowered agreement on {', '.join(hurt)}: its track record holds the cells it does "
                "not win once written (`--record`); `keep:` in the judge's entry keeps a cell by hand (docs/judge.md)"
            ),
            soft_wrap=True,
        )
