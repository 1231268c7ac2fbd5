"""Commands about the ruler itself: regrade, delta, rules show, what-if and audit (the ledger of gradings)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer
from rich.table import Table
from rich.text import Text

from ragpipe.cli.app import GRADER, app, console, loaded_rules, pair_grader, say, say_blocked
from ragpipe.cli.judge import JUDGE_HELP, JUDGE_ON_HELP, configured, use_judge
from ragpipe.cli.orchestrator import WHERE_DETAILS, orchestrator
from ragpipe.warehouse.lock import WarehouseBusy, writing
from ragpipe.warehouse.settings import database_path, warehouse_dir
from ragpipe.warehouse.sql import readonly_connection

MONOTONE = {True: "no correct verdict got worse", False: "some correct verdict got worse"}


def _print_delta(delta: dict, limit: int = 40) -> None:
    console.print(
        f"delta {delta.get('from_version')} -> {delta.get('to_version')}: "
        f"{delta['changed']} of {delta['compared']} answers changed; "
        f"monotone: {str(delta['monotone']).lower()} ({MONOTONE[delta['monotone']]})"
    )
    for e in delta.get("events", []):
        between = e.get("between") or 0
        console.print(
            f"  {e['corpus']}/{e['config']}: grading #{e['from_event']} ({e['from_version']}) -> "
            f"#{e['to_event']} ({e['to_version']}): {e['changed']} changed "
            + (f"({between} grading(s) between, under the latest's version; " if between else "(")
            + "#: its grading events, in table grading_events)"
        )
    for corpus, directions in delta["summary"].items():
        for direction, n in directions.items():
            console.print(f"  {corpus}: {direction}: {n}")
    if delta["flips"]:
        table = Table(title=f"flips (first {min(limit, len(delta['flips']))} of {len(delta['flips'])})")
        for column in ("corpus", "config", "answer_set", "question_id", "old", "new", "old rule", "new rule"):
            table.add_column(column)
        for f in delta["flips"][:limit]:
            table.add_row(
                f["corpus"],
                f["config"],
                f["answer_set"],
                f["question_id"],
                f"{f['old_verdict']}{' (declined)' if f['old_declined'] else ''}",
                f"{f['new_verdict']}{' (declined)' if f['new_declined'] else ''}",
                f["old_rule"],
                f["new_rule"],
            )
        console.print(table)


def _na(value) -> str:
    """A figure, or n/a where it is undefined (a refusal F1 with no refusal among the labels)."""
    return "n/a" if value is None or value != value else str(value)


def _from_warehouse(compute):
    """Run `compute(conn)` on a read-only warehouse connection; a LookupError is a clean exit."""
    conn = readonly_connection(database_path())
    try:
        return _or_exit(compute, conn)
    finally:
        conn.close()


def _graders_said(pairs: list[tuple[str, str]], rules_file: Path | None, judge: str | None) -> str:
    """ "grader g-..." when every pair has one grader, else each grader with its pairs: a pair whose
    configuration names a judge (corpora/configs.yaml) is graded with it, unless --judge names another."""
    rules = loaded_rules(rules_file)
    by: dict[str, list[str]] = {}
    for corpus, config in pairs:
        by.setdefault(pair_grader(rules, corpus, config, judge), []).append(f"{corpus}/{config}")
    if len(by) == 1:
        return f"grader {next(iter(by))}"
    return "graders " + "; ".join(f"{version} ({', '.join(named)})" for version, named in by.items())


def _reload_edited_questions(corpora: list[str]) -> None:
    """Questions and needles are inputs of the grade: a corpus whose question file changed since its questions
    were read has them read again (and its needles mined again) before anything is graded, said in a line."""
    from ragpipe.corpus.manifest import list_corpora
    from ragpipe.corpus.question_source import edited_files
    from ragpipe.warehouse.settings import corpora_dir

    manifests = list_corpora(corpora_dir())
    for corpus, file in _from_warehouse(lambda conn: edited_files(conn, manifests, corpora)).items():
        console.print(
            Text(f"{corpus}: its questions changed since they were read ({file}): "
                 "reading them again and mining their needles before grading"),
            soft_wrap=True,
        )  # fmt: skip
        with writing(warehouse_dir(), "ragpipe regrade"):
            outcome = orchestrator().materialize_corpus_stages(corpus)
        if outcome.busy:
            raise WarehouseBusy(outcome.busy)
        if outcome.failed_otherwise:
            say(f"{corpus}: its questions could not be read again: {outcome.failure}", err=True)
            raise typer.Exit(1)


@app.command(rich_help_panel=GRADER)
def regrade(
    rules_file: Path | None = typer.Option(
        None, "--rules", exists=True, dir_okay=False, help="grade with this rules file (as RAGPIPE_RULES does)"
    ),
    executor: str = typer.Option(
        "in-process", "--executor", help="in-process, or celery: grade shards on Celery workers (docs/deploy.md)"
    ),
    judge: str | None = typer.Option(None, "--judge", help=JUDGE_HELP),
    judge_on: str = typer.Option("tentative", "--judge-on", help=JUDGE_ON_HELP),
) -> None:
    """Re-materialize rule verdicts, grades and everything downstream (scorecards, agreement, delta) for
    every (corpus, configuration) pair with stored answers, in one run. Answers are never regenerated.
    With --judge, the judge is asked about the tentative verdicts still missing a judgment (docs/judge.md)."""
    if executor not in ("in-process", "celery"):
        raise typer.BadParameter(f"--executor takes in-process or celery, not {executor!r}")
    from ragpipe.history.whatif import stored_pairs

    use_judge(judge, judge_on)
    rules = loaded_rules(rules_file)
    if judge is not None:
        from ragpipe.judge import judged_rules

        judge_config, identity = configured(judge)
        rules = judged_rules(rules, identity, judge_config.keeps, judge_config.budget)
    if rules_file is not None:  # read by the pipeline's resources when the orchestrator loads, below
        os.environ["RAGPIPE_RULES"] = str(rules_file.resolve())
    pairs = _from_warehouse(stored_pairs)
    if not pairs:
        console.print("no stored answers: run `ragpipe run` first")
        raise typer.Exit(1)
    graders = _graders_said(pairs, rules_file, judge)
    _reload_edited_questions(sorted({corpus for corpus, _ in pairs}))
    blocked, failed, graded_anyway = [], [], 0
    if executor == "celery":  # one run per pair, its shards on the workers
        for corpus, config in pairs:  # one pair that fails does not stop the others
            console.print(Text(f"regrading {corpus}/{config} with grader {rules.version}"))
            with writing(warehouse_dir(), "ragpipe regrade"):
                outcome = orchestrator().regrade(corpus, config, on_celery=True)
            blocked.extend(outcome.failed_money)
            if outcome.busy:
                raise WarehouseBusy(outcome.busy)
            if outcome.failed_otherwise:
                failed.append(f"{corpus}/{config}")
                say(f"regrade of {corpus}/{config} failed: {outcome.failure}; {WHERE_DETAILS}", err=True)
    else:  # every pair in one run: a stage is one step over the pairs (docs/performance.md)
        console.print(Text(f"regrading {len(pairs)} pair(s) in one run with {graders}"), soft_wrap=True)
        with writing(warehouse_dir(), "ragpipe regrade"):  # the grading step draws its own progress bars
            outcome = orchestrator().regrade_all(pairs, progress_bar=console.is_terminal)
        for line in outcome.said:  # one line each, never folded: a line a reader may copy or grep
            console.print(Text(line), soft_wrap=True)
        blocked.extend(outcome.failed_money)
        if outcome.busy:
            raise WarehouseBusy(outcome.busy)
        if outcome.failed_otherwise and outcome.stopped:  # some pairs stopped at a stage: what each committed
            failed = [pair for pair, _, _ in outcome.stopped]
            graded_anyway = sum(graded for *_, graded in outcome.stopped)
            for _, line, _ in outcome.stopped:
                say(line, err=True)
        elif outcome.failed_otherwise:
            failed = [f"{c}/{g}" for c, g in pairs]
            say(f"the regrade failed: {outcome.failure}; {WHERE_DETAILS}", err=True)
    console.print(
        Text(
            f"regraded {len(pairs) - len(failed) + graded_anyway} pair(s) with {graders}"
            + (f"; {len(failed)} stopped before the end (said above): {', '.join(failed)}" if failed else "")
        ),
        soft_wrap=True,
    )
    say_blocked(blocked)
    if failed:
        raise typer.Exit(1)
    if blocked:
        raise typer.Exit(1)


@app.command(rich_help_panel=GRADER)
def delta(
    from_version: str | None = typer.Option(
        None, "--from", help="grader version before (default: each pair's last grading under another version)"
    ),
    to_version: str | None = typer.Option(
        None, "--to", help="grader version after (default: each pair's latest grading)"
    ),
    corpus: str | None = typer.Option(None, help="only this corpus"),
    config: str | None = typer.Option(None, help="only this configuration"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Every verdict each pair's latest grading flipped against its last grading under another grader version
    (the one just before where there is none; or between two grader versions), by direction and rule, with
    scorecards and agreement side by side."""
    from ragpipe.history.delta import stored_delta

    result = _from_warehouse(lambda conn: stored_delta(conn, corpus, config, from_version, to_version))
    if as_json:
        say(json.dumps(result, indent=2, default=str))
        return
    _print_delta(result)
    if result["scorecards"]:
        table = Table(title="scorecards before / after")
        for column in (
            "corpus",
            "config",
            "answers",
            "accuracy % before",
            "accuracy % after",
            "c/p/w before",
            "c/p/w after",
            "money before",
            "money after",
        ):
            table.add_column(column)
        for c in result["scorecards"]:
            table.add_row(
                c["corpus"],
                c["config"],
                c["answer_set"],
                str(c["overall_pct_before"]),
                str(c["overall_pct_after"]),
                f"{c['correct_before']}/{c['partial_before']}/{c['wrong_before']}",
                f"{c['correct_after']}/{c['partial_after']}/{c['wrong_after']}",
                c["money_bar_before"],
                c["money_bar_after"],
            )
        console.print(table)
    if result["agreement"]:
        table = Table(title="agreement with people before / after")
        for column in ("corpus", "config", "accuracy", "kappa", "refusal F1", "false correct"):
            table.add_column(column)
        for a in result["agreement"]:
            table.add_row(
                a["corpus"],
                a["config"],
                f"{a['accuracy_before']} -> {a['accuracy_after']}",
                f"{a['kappa_before']} -> {a['kappa_after']}",
                f"{_na(a['refusal_f1_before'])} -> {_na(a['refusal_f1_after'])}",
                f"{a['false_correct_before']} -> {a['false_correct_after']}",
            )
        console.print(table)


rules_app = typer.Typer(help="The grader's rules: what a grader version was made of.", no_args_is_help=True)
app.add_typer(rules_app, name="rules", rich_help_panel=GRADER)


@rules_app.command("show")
def rules_show(
    version: str | None = typer.Argument(None, help="a grader version (default: the current rules)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Print the rules text and code hash a grader version was computed from."""
    from ragpipe.history.ledger import stored_rules

    if version is None:
        rules = loaded_rules(None)
        stored = _from_warehouse(lambda conn: stored_rules(conn, rules.version)) if database_path().exists() else None
        record = {
            "grader_version": rules.version,
            "rules_text": rules.rules_text,
            "code_sha": rules.code_sha,
            "first_recorded": stored["first_recorded"] if stored else None,  # None: no grading used it yet
        }
    else:
        record = _from_warehouse(lambda conn: stored_rules(conn, version))
        if record is None:
            console.print(
                f"grader version {version!r} is not recorded in this warehouse "
                '(`ragpipe sql "SELECT grader_version FROM grader_versions"`)',
                style="red",
            )
            raise typer.Exit(1)
    if as_json:
        say(json.dumps(record, indent=2, default=str))
        return
    first = record["first_recorded"]
    when = f"first recorded {first}" if first is not None else "not recorded yet (no grading has used it)"
    say(f"# grader {record['grader_version']}  code {record['code_sha']}  {when}")
    say(record["rules_text"], nl=False)


@rules_app.command("diff")
def rules_diff(
    a: str = typer.Argument(..., help="a grader version recorded in the warehouse, a rules file, or `current`"),
    b: str = typer.Argument("current", help="the same, to compare with (default: the current rules)"),
) -> None:
    """What changed between two graders: a unified diff of their rules text, and whether their grading
    code differs (a version moves with either)."""
    import difflib

    one, two = _rules_record(a), _rules_record(b)
    say(f"# {a}: grader {one['grader_version']}  code {one['code_sha']}")
    say(f"# {b}: grader {two['grader_version']}  code {two['code_sha']}")
    if one["code_sha"] != two["code_sha"]:
        say("# the grading code differs too: `ragpipe delta` shows what that flipped")
    lines = difflib.unified_diff(
        one["rules_text"].splitlines(keepends=True),
        two["rules_text"].splitlines(keepends=True),
        fromfile=f"{a} ({one['grader_version']})",
        tofile=f"{b} ({two['grader_version']})",
    )
    say("".join(lines) or "# the rules text is the same\n", nl=False)


def _rules_record(which: str) -> dict:
    """A grader's rules text and code hash: `current`, a rules file, or a version the warehouse recorded."""
    from ragpipe.history.ledger import stored_rules

    path = Path(which)
    if which == "current" or path.is_file():
        rules = loaded_rules(None if which == "current" else path)
        return {"grader_version": rules.version, "rules_text": rules.rules_text, "code_sha": rules.code_sha}
    record = _from_warehouse(lambda conn: stored_rules(conn, which))
    if record is None:
        console.print(f"{which!r} is neither a rules file nor a grader version recorded in this warehouse", style="red")
        raise typer.Exit(1)
    return record


@app.command(rich_help_panel=GRADER)
def whatif(
    rules_file: Path = typer.Option(..., "--rules", exists=True, dir_okay=False, help="candidate rules file"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Grade every stored answer with candidate rules and show the delta against the current grades, each
    pair with the judge its configuration names (its stored judgments applied, nobody asked). Nothing is
    recorded."""
    from ragpipe.history.whatif import whatif as whatif_delta
    from ragpipe.judge import pair_judging
    from ragpipe.warehouse.settings import corpora_dir, judge_setting, judges_path

    rules = loaded_rules(rules_file)
    corpora = corpora_dir()
    override, override_on = judge_setting()

    def judging_of(corpus: str, config: str):
        return pair_judging(rules, judges_path(corpora), corpora, corpus, config, override, override_on)

    result = _from_warehouse(lambda conn: whatif_delta(conn, rules, judging_of))
    if as_json:
        say(json.dumps(result, indent=2, default=str))
        return
    _print_delta(result)


@app.command(rich_help_panel=GRADER)
def audit(
    add_decline: list[str] = typer.Option([], "--add-decline", help="a proposed decline phrase (repeatable)"),
    labels: list[Path] = typer.Option(
        [], "--labels", exists=True, help="a labelled JSONL file or folder of FinanceBench labels (repeatable)"
    ),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Where do decline rules collide? Each proposed phrase against the warehouse (needles, money keys, gold
    answers, answers graded correct) and what it would flip, which needs no labels; and every decline rule
    (with the proposed phrases) run over the answers people judged, when there are some: the labelled
    files given and the warehouse's labelled answers, set by set. Nothing is recorded."""
    from ragpipe.grader_agreement.audit import audit as audit_rules
    from ragpipe.grader_agreement.audit import with_declines
    from ragpipe.grader_agreement.label_collisions import judged_answers, label_collisions, warehouse_judged
    from ragpipe.grading.rules import RulesError

    rules = loaded_rules(None)

    def compute(conn):
        result = audit_rules(conn, rules, add_decline) if add_decline else {"phrases": []}
        sets = [judged_answers(p) for p in labels] + (warehouse_judged(conn) if conn is not None else [])
        if not sets and not add_decline:
            raise LookupError("no answers people judged: give --labels FILE, or import labelled answers first")
        candidate = with_declines(rules, add_decline)[0] if add_decline else rules
        result["label_collisions"] = label_collisions(candidate, sets, add_decline) if sets else None
        result["sets"] = [{"name": s.name, "answers": len(s.rows)} for s in sets]
        return result

    try:
        # a labelled file needs no warehouse: with no proposal to try on it, none is opened if absent
        result = _from_warehouse(compute) if add_decline or database_path().exists() else _or_exit(compute, None)
    except RulesError as exc:
        console.print(f"{exc}", style="red")
        raise typer.Exit(2) from None
    if as_json:
        say(json.dumps(result, indent=2, default=str))
        return
    if result["label_collisions"] is None:
        console.print(NO_LABELS, style="yellow", soft_wrap=True)
    else:
        _print_label_collisions(result["label_collisions"])
    if not add_decline:
        return
    for o in result["overrides_exclusions"]:
        console.print(f"{o['phrase']!r} is a deliberate exclusion: {o['reason']}", style="yellow")
    table = Table(title=f"{result['collision_count']} collision(s) in the warehouse")
    for column in ("phrase", "where", "corpus", "question_id", "text"):
        table.add_column(column, overflow="fold")
    for c in result["collisions"]:
        table.add_row(c["phrase"], c["where"], c["corpus"], c["question_id"], (c["text"] or "")[:120])
    console.print(table)
    _print_delta(result["delta"])


NO_LABELS = (
    "no answers people judged, so the phrases were checked against the warehouse alone (below); give "
    "--labels FILE (or import labelled answers) to see which answers people accepted they would decline"
)


def _or_exit(compute, conn):
    """`compute(conn)`; a LookupError is a clean exit (conn may be None: no warehouse needed)."""
    try:
        return compute(conn)
    except LookupError as exc:
        console.print(f"{exc}", style="red")
        raise typer.Exit(1) from None


def _print_label_collisions(rows: list[dict]) -> None:
    costly = [r for r in rows if r["declined_accepted"]]
    table = Table(title=f"decline rules that decline answers people accepted ({len(costly)} rule x set)")
    for column in ("rule", "set", "declines accepted", "fires on accepted", "fires on refusals", "example"):
        table.add_column(column, overflow="fold")
    for r in costly:
        table.add_row(
            f"{r['section']}: {r['rule'][:70]}",
            r["set"],
            f"{r['declined_accepted']} of {r['accepted']}",
            str(r["fires_on_accepted"]),
            f"{r['fires_on_refusals']} of {r['refusals']}",
            (r["examples"] or [""])[0][:120],
        )
    console.print(table)
