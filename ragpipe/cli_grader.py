"""Commands about the ruler itself: regrade, delta, what-if, audit, and read-only SQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import pandas as pd
import typer
from rich.table import Table

from ragpipe.audit import audit as audit_rules
from ragpipe.cli import _dagster_home, app, console
from ragpipe.delta import grade_delta
from ragpipe.grading.rules import RulesError, load_rules
from ragpipe.history import grader_versions, verdicts_at
from ragpipe.settings import database_path, rules_path, warehouse_dir
from ragpipe.warehouse_lock import WarehouseBusy, writing
from ragpipe.sql import SqlRefused, readonly_connection, run_query
from ragpipe.warehouse import table_exists
from ragpipe.whatif import stored_pairs, whatif as whatif_delta


def _print_delta(delta: dict, limit: int = 40) -> None:
    console.print(
        f"delta {delta.get('from_version')} -> {delta.get('to_version')}: {delta['changed']} of {delta['compared']} answers changed; "
        f"monotone: {str(delta['monotone']).lower()}"
    )
    for corpus, directions in delta["summary"].items():
        for direction, n in directions.items():
            console.print(f"  {corpus}: {direction}: {n}")
    if delta["flips"]:
        table = Table(title=f"flips (first {min(limit, len(delta['flips']))} of {len(delta['flips'])})")
        for column in ("corpus", "config", "answer_set", "question_id", "old", "new", "old rule", "new rule"):
            table.add_column(column)
        for f in delta["flips"][:limit]:
            table.add_row(f["corpus"], f["config"], f["answer_set"], f["question_id"], f"{f['old_verdict']}{' (declined)' if f['old_declined'] else ''}",
                          f"{f['new_verdict']}{' (declined)' if f['new_declined'] else ''}", f["old_rule"], f["new_rule"])
        console.print(table)


def _cell(value) -> str:
    """A table cell: NULL shows empty, lists and arrays as they print."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return ""
    return str(list(value)) if hasattr(value, "tolist") else str(value)


def _from_warehouse(compute):
    """Run `compute(conn)` on a read-only warehouse connection; a LookupError is a clean exit."""
    conn = readonly_connection(database_path())
    try:
        return compute(conn)
    except LookupError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1)
    finally:
        conn.close()


def _rules(path: Optional[Path]):
    try:
        return load_rules(path or rules_path())
    except RulesError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2)


@app.command()
def regrade() -> None:
    """Re-materialize grades and everything downstream (scorecards, agreement, delta) for every
    (corpus, configuration) pair with stored answers. Answers are never regenerated."""
    rules = _rules(None)
    pairs = _from_warehouse(stored_pairs)
    if not pairs:
        console.print("no stored answers: run `ragpipe run` first")
        raise typer.Exit(1)
    _dagster_home()
    from dagster import DagsterInstance

    from assets.runner import failed_money_checks, regrade_pair

    instance = DagsterInstance.get()
    blocked = []
    for corpus, config in pairs:
        with console.status(f"regrading {corpus}/{config} with grader {rules.version}"), writing(warehouse_dir(), "ragpipe regrade"):
            result = regrade_pair(corpus, config, instance=instance)
        money = failed_money_checks([result])
        blocked.extend(money)
        if not result.success and not money:
            console.print(f"[red]regrade of {corpus}/{config} failed; see `dagster dev -w workspace.yaml`[/red]")
            raise typer.Exit(1)
    console.print(f"regraded {len(pairs)} pair(s) with grader {rules.version}")
    for b in blocked:
        console.print(f"[red]ZERO-WRONG-MONEY FAIL on {b['corpus']}/{b['config']}: {', '.join(b['offending_questions'])}[/red]")
    if blocked:
        raise typer.Exit(1)


def delta_between(conn, before: Optional[str], after: Optional[str]) -> dict:
    versions = grader_versions(conn)
    if len(versions) < 2 and (before is None or after is None):
        raise LookupError(f"the warehouse holds {len(versions)} grader version(s); a delta needs two")
    before = before or versions[-2]
    after = after or versions[-1]
    for v in (before, after):
        if v not in versions:
            raise LookupError(f"unknown grader version {v!r}; known: {', '.join(versions)}")
    delta = grade_delta(verdicts_at(conn, before), verdicts_at(conn, after))
    cards = conn.execute(
        "SELECT * FROM scorecard_history WHERE grader_version IN (?, ?) ORDER BY corpus, config, answer_set", [before, after]
    ).df()
    side = []
    for (corpus, config, answer_set), g in cards.groupby(["corpus", "config", "answer_set"], sort=True):
        by_version = {r["grader_version"]: r for r in g.to_dict("records")}
        if before in by_version and after in by_version:
            side.append({
                "corpus": corpus, "config": config, "answer_set": answer_set,
                **{f"{k}_before": by_version[before][k] for k in ("overall_pct", "correct", "partial", "wrong", "money_bar")},
                **{f"{k}_after": by_version[after][k] for k in ("overall_pct", "correct", "partial", "wrong", "money_bar")},
            })
    agreement = []
    if table_exists(conn, "agreement"):
        rows = conn.execute(
            "SELECT corpus, config, grader_version, n, accuracy, kappa, refusal_f1, false_correct, false_correct_numeric "
            "FROM agreement WHERE scope = 'overall' AND grader_version IN (?, ?) ORDER BY corpus, config", [before, after]
        ).df()
        for (corpus, config), g in rows.groupby(["corpus", "config"], sort=True):
            by_version = {r["grader_version"]: r for r in g.to_dict("records")}
            if before in by_version and after in by_version:
                agreement.append({"corpus": corpus, "config": config, **{
                    f"{k}_{side_name}": by_version[v][k]
                    for side_name, v in (("before", before), ("after", after))
                    for k in ("accuracy", "kappa", "refusal_f1", "false_correct", "false_correct_numeric")
                }})
    return {"from_version": before, "to_version": after, **delta, "scorecards": side, "agreement": agreement}


@app.command()
def delta(
    from_version: Optional[str] = typer.Option(None, "--from", help="grader version before (default: the previous one)"),
    to_version: Optional[str] = typer.Option(None, "--to", help="grader version after (default: the current one)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Every verdict a grader change flipped, by direction and rule, with scorecards side by side."""
    result = _from_warehouse(lambda conn: delta_between(conn, from_version, to_version))
    if as_json:
        typer.echo(json.dumps(result, indent=2, default=str))
        return
    _print_delta(result)
    if result["scorecards"]:
        table = Table(title="scorecards before / after")
        for column in ("corpus", "config", "answers", "overall % before", "overall % after", "c/p/w before", "c/p/w after", "money before", "money after"):
            table.add_column(column)
        for c in result["scorecards"]:
            table.add_row(c["corpus"], c["config"], c["answer_set"], str(c["overall_pct_before"]), str(c["overall_pct_after"]),
                          f"{c['correct_before']}/{c['partial_before']}/{c['wrong_before']}", f"{c['correct_after']}/{c['partial_after']}/{c['wrong_after']}",
                          c["money_bar_before"], c["money_bar_after"])
        console.print(table)
    if result["agreement"]:
        table = Table(title="agreement with people before / after")
        for column in ("corpus", "config", "accuracy", "kappa", "refusal F1", "false correct"):
            table.add_column(column)
        for a in result["agreement"]:
            table.add_row(a["corpus"], a["config"], f"{a['accuracy_before']} -> {a['accuracy_after']}", f"{a['kappa_before']} -> {a['kappa_after']}",
                          f"{a['refusal_f1_before']} -> {a['refusal_f1_after']}", f"{a['false_correct_before']} -> {a['false_correct_after']}")
        console.print(table)


@app.command()
def whatif(
    rules_file: Path = typer.Option(..., "--rules", exists=True, dir_okay=False, help="candidate rules file"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Grade every stored answer with candidate rules and show the delta against the current grades.
    Nothing is recorded."""
    rules = _rules(rules_file)
    result = _from_warehouse(lambda conn: whatif_delta(conn, rules))
    if as_json:
        typer.echo(json.dumps(result, indent=2, default=str))
        return
    _print_delta(result)


@app.command()
def audit(
    add_decline: list[str] = typer.Option(..., "--add-decline", help="a proposed decline phrase (repeatable)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Where would proposed decline phrases collide (needles, money keys, gold answers, answers graded
    correct), and what would they flip? Nothing is recorded."""
    rules = _rules(None)
    result = _from_warehouse(lambda conn: audit_rules(conn, rules, add_decline))
    if as_json:
        typer.echo(json.dumps(result, indent=2, default=str))
        return
    for o in result["overrides_exclusions"]:
        console.print(f"[yellow]{o['phrase']!r} is a deliberate exclusion: {o['reason']}[/yellow]")
    table = Table(title=f"{result['collision_count']} collision(s)")
    for column in ("phrase", "where", "corpus", "question_id", "text"):
        table.add_column(column, overflow="fold")
    for c in result["collisions"]:
        table.add_row(c["phrase"], c["where"], c["corpus"], c["question_id"], (c["text"] or "")[:120])
    console.print(table)
    _print_delta(result["delta"])


@app.command()
def sql(
    query: str = typer.Argument(..., help='e.g. "SELECT verdict, count(*) FROM grades GROUP BY ALL"'),
    as_json: bool = typer.Option(False, "--json"),
    as_csv: bool = typer.Option(False, "--csv"),
) -> None:
    """Run a query against the warehouse through a read-only connection (writes are refused)."""
    try:
        frame = run_query(database_path(), query)
    except SqlRefused as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2)
    except WarehouseBusy:
        raise  # `ragpipe` says so and exits 3
    except Exception as exc:  # a bad query: say what DuckDB said
        console.print(f"[red]query failed: {str(exc).splitlines()[0]}[/red]")
        raise typer.Exit(1)
    if as_json:
        typer.echo(frame.to_json(orient="records", default_handler=str))
    elif as_csv:
        typer.echo(frame.to_csv(index=False), nl=False)
    else:
        table = Table()
        for column in frame.columns:
            table.add_column(str(column), overflow="fold")
        for row in frame.itertuples(index=False):
            table.add_row(*(_cell(v) for v in row))
        console.print(table)
