"""`ragpipe judge export|import`, and the `--judge` options the grading commands share.

A judge is optional: with none named, every verdict is the rules' own. `--judge NAME` names a
configuration of `corpora/configs.yaml` (`judges:`); `--judgments FILE` (agreement) grades with
verdicts recorded elsewhere, never asking anything.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from ragpipe.cli.app import GRADER, app, console, say
from ragpipe.warehouse.lock import open_for_writing, writing
from ragpipe.warehouse.settings import database_path, judges_path, warehouse_dir
from ragpipe.warehouse.sql import readonly_connection

judge_app = typer.Typer(help="The model judge's judgments: export what is missing, import what was judged.")
app.add_typer(judge_app, name="judge", rich_help_panel=GRADER, no_args_is_help=True)

JUDGE_HELP = "grade with this model judge too (a `judges:` entry of corpora/configs.yaml)"
JUDGE_ON_HELP = "ask the judge about tentative verdicts only (default), or all"


def configured(name: str):
    """(config, identity) of the judge `name`, or exit 2 naming the known ones."""
    from ragpipe.judge import JudgeError, identity_of, judge_named

    try:
        config = judge_named(judges_path(), name)
    except JudgeError as exc:
        console.print(str(exc), style="red")
        raise typer.Exit(2) from None
    return config, identity_of(config)


def checked_judge_on(judge_on: str) -> str:
    from ragpipe.judge import JUDGE_ON

    if judge_on not in JUDGE_ON:
        raise typer.BadParameter(f"--judge-on takes {' or '.join(JUDGE_ON)}, not {judge_on!r}")
    return judge_on


def use_judge(judge: str | None, judge_on: str) -> None:
    """Grade this command's runs with `judge` (checked now): the pipeline's resources read it when the
    orchestrator loads, as they read RAGPIPE_RULES."""
    import os

    judge_on = checked_judge_on(judge_on)
    if judge is None:
        return
    configured(judge)
    os.environ["RAGPIPE_JUDGE"], os.environ["RAGPIPE_JUDGE_ON"] = judge, judge_on


def keep(frame) -> int:
    """Store judgments just asked in the warehouse: a second run asks nothing."""
    from ragpipe.judge import store_judgments

    if frame is None or frame.empty:
        return 0
    with writing(warehouse_dir(), "ragpipe judge"):
        conn = open_for_writing(database_path())
        try:
            return store_judgments(conn, frame)
        finally:
            conn.close()


def _warehouse_pending(judge: str, judge_on: str, corpus: str | None):
    """(config, identity, [(question, answer, key)]) still missing for every stored pair (or `corpus`'s),
    read from the pair's stored rule verdicts; a pair whose rule verdicts are missing or by other rules
    than the loaded ones is graded here, in memory (`ragpipe regrade` stores them)."""
    from ragpipe.grading.grade_table import grade_answers
    from ragpipe.grading.rules import load_rules
    from ragpipe.history.behind import stale_rule_verdicts
    from ragpipe.history.whatif import stored_pairs
    from ragpipe.judge import pending, stored_judgments
    from ragpipe.warehouse.settings import rules_path
    from ragpipe.warehouse.tables import read_partition, table_exists

    config, identity = configured(judge)
    rules = load_rules(rules_path())
    found: dict[str, tuple] = {}
    with readonly_connection(database_path()) as conn:
        stored = stored_judgments(conn, identity.id)
        held = table_exists(conn, "rule_verdicts")
        for c, cfg in stored_pairs(conn):
            if corpus is not None and c != corpus:
                continue
            keys = {"corpus": c, "config": cfg}
            answers = read_partition(conn, "answers", keys)
            questions = read_partition(conn, "questions", {"corpus": c})
            verdicts = read_partition(conn, "rule_verdicts", keys) if held else None
            if stale_rule_verdicts(verdicts, answers, rules.version):
                verdicts = grade_answers(answers, questions, read_partition(conn, "needles", {"corpus": c}), rules)
            for item in pending(verdicts, answers, questions, stored, judge_on, config.keeps, config.budget):
                found.setdefault(item[2], item)
    return config, identity, [found[k] for k in sorted(found)]


@judge_app.command("export")
def export(
    judge: str = typer.Option(..., "--judge", help=JUDGE_HELP),
    judge_on: str = typer.Option("tentative", "--judge-on", help=JUDGE_ON_HELP),
    corpus: str | None = typer.Option(None, "--corpus", help="only this corpus"),
    out: Path | None = typer.Option(None, "--out", dir_okay=False, help="write here (default: stdout)"),
) -> None:
    """The judgments the warehouse still lacks, as an OpenAI batch request file (one request per line,
    `custom_id` = the judgment's key). Run it through the batch API, then `ragpipe judge import`."""
    from ragpipe.judge import batch_requests

    if out is not None and not out.parent.is_dir():  # said before the warehouse is read, not as a traceback after
        console.print(f"--out {out}: no folder {out.parent}; create it first", style="red")
        raise typer.Exit(1)
    config, identity, missing = _warehouse_pending(judge, checked_judge_on(judge_on), corpus)
    lines = [json.dumps(line, sort_keys=True) for line in batch_requests(config, identity, missing)]
    if out is None:
        for line in lines:
            say(line)
    else:
        out.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    say(f"{len(lines)} judgment(s) missing for judge {judge} ({identity.id})", err=True)


@judge_app.command("import")
def import_judgments(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, help="a batch output file or recorded verdicts"),
    judge: str | None = typer.Option(None, "--judge", help="the judge that exported a batch file"),
) -> None:
    """Load judgments into the warehouse: a batch output file (its judge: `--judge`, the configuration
    that exported it) or JSON lines of verdicts recorded elsewhere (question_id, answer, verdict, judge,
    reason). A line whose key is stored replaces it; bad lines are reported as file:line:field."""
    from ragpipe.corpus.questions import question_from_row
    from ragpipe.judge import answer_keys, judgments_frame, read_judgments, store_judgments
    from ragpipe.warehouse.nulls import records
    from ragpipe.warehouse.tables import table_exists

    exporter = configured(judge) if judge else None
    with writing(warehouse_dir(), "ragpipe judge import"):
        conn = open_for_writing(database_path())
        try:
            questions: dict = {}
            if table_exists(conn, "questions"):
                for row in records(conn.execute("SELECT * FROM questions ORDER BY corpus, question_id").df()):
                    questions.setdefault(row["question_id"], question_from_row(row))
            judgments, problems = read_judgments(path, questions, exporter)
            written = store_judgments(conn, judgments_frame(judgments), replace=True)
            known = answer_keys(conn)
        finally:
            conn.close()
    for problem in problems:
        say(f"skipped {problem}", err=True)
    orphans = len({j.input_key for j in judgments} - known)
    console.print(f"imported {written} judgment(s) ({len(problems)} line(s) skipped)")
    if orphans:
        console.print(
            f"{orphans} of them judge no answer the warehouse holds (another answer text, question or kind): "
            "stored, they decide a grade only once such an answer is graded",
            style="yellow",
        )
    if exporter is None:
        _say_unapplied(judgments)
    if problems and not judgments:
        raise typer.Exit(1)


def _say_unapplied(judgments) -> None:
    """Recorded verdicts decide grades only through a `recorded: true` judge of their name: say so when there
    is none, rather than report an import nothing will ever apply."""
    from ragpipe.judge import JudgeError, load_judges

    try:
        recorded = {name for name, c in load_judges(judges_path()).items() if c.recorded}
    except JudgeError:
        recorded = set()
    counts: dict[str, int] = {}
    for j in judgments:
        counts[j.judge] = counts.get(j.judge, 0) + 1
    for name, n in sorted(counts.items()):
        if name not in recorded:
            console.print(
                f"{n} judgment(s) of {name!r}: no judge named {name!r} with `recorded: true` under `judges:` "
                f"({judges_path()}): stored, they decide no grade until one is (docs/judge.md)",
                style="yellow",
                soft_wrap=True,
            )
