"""`ragpipe compare`: two answer sets (or one across two configurations), paired by question."""

from __future__ import annotations

import json

import typer
from rich.table import Table

from ragpipe.cli.app import SYSTEMS, app, console, loaded_rules, pair_grader, say
from ragpipe.cli.fitted import print_fitted
from ragpipe.scoring.interval_text import interval_text
from ragpipe.warehouse.settings import database_path, warehouse_dir
from ragpipe.warehouse.sql import readonly_connection


def _grades(conn, corpus: str, config: str, answer_set: str):
    from ragpipe.answering.answer_sets import answer_sets
    from ragpipe.warehouse.tables import read_partition

    grades = read_partition(conn, "grades", {"corpus": corpus, "config": config, "answer_set": answer_set})
    if grades.empty:
        held = answer_sets(conn, corpus, config)
        if held:
            said = f"{corpus}/{config} holds no answer set {answer_set!r}; it holds: {', '.join(held)}"
            console.print(said, style="red")
        else:
            console.print(
                f"{corpus}/{config} holds no answers yet: run `ragpipe run --corpus {corpus} --config {config}` first",
                style="red",
            )
        raise typer.Exit(1)
    return grades


def _retrieves(conn, corpus: str, config: str, answer_set: str) -> bool:
    from ragpipe.answering.retrieving import answered_from_pair_retrieval

    engines = conn.execute(
        "SELECT DISTINCT engine FROM answers WHERE corpus = ? AND config = ? AND answer_set = ?",
        [corpus, config, answer_set],
    ).fetchall()
    return answered_from_pair_retrieval(e for (e,) in engines)


def _people(conn, corpus: str, a_config: str, b_config: str, grades_a, grades_b) -> dict | None:
    """People's accuracy difference, where people labelled both systems on the same questions."""
    import pandas as pd

    from ragpipe.labels.store import people_labels
    from ragpipe.scoring.compare import people_difference
    from ragpipe.warehouse.tables import read_partition

    labels = []
    for config in dict.fromkeys((a_config, b_config)):
        answers = read_partition(conn, "answers", {"corpus": corpus, "config": config})
        labels.append(people_labels(conn, corpus, config, answers))
    return people_difference(grades_a, grades_b, pd.concat(labels))


def report_link(corpus: str, config: str, answer_id: str) -> str:
    """Where the review report the pipeline writes for the pair shows this answer."""
    return f"{warehouse_dir() / 'reports' / f'corpus={corpus}' / f'config={config}' / 'review.html'}#a-{answer_id}"


@app.command(rich_help_panel=SYSTEMS)
def compare(
    corpus: str = typer.Option(..., "--corpus"),
    config: str = typer.Option("default", "--config", help="the configuration of both (unless --a-config/--b-config)"),
    a: str = typer.Option(..., "--a", help="answer set A, as `ragpipe answers list` names it"),
    b: str = typer.Option(..., "--b", help="answer set B"),
    a_config: str | None = typer.Option(None, "--a-config", help="A's configuration, to compare across them"),
    b_config: str | None = typer.Option(None, "--b-config", help="B's configuration"),
    as_json: bool = typer.Option(False, "--json"),
    limit: int = typer.Option(20, "--limit", min=0, help="flips listed (all in --json)"),
) -> None:
    """B against A, question by question: wins, losses, ties, the accuracy difference with a paired
    bootstrap 95% interval and an exact McNemar p-value, and the questions that flip (read-only)."""
    from ragpipe.retrieval.scoring import measures
    from ragpipe.scoring.compare import compare as compare_sets
    from ragpipe.scoring.compare import compare_line, compare_retrieval
    from ragpipe.scoring.scorecard import pair_retrieval

    a_config, b_config = a_config or config, b_config or config
    with readonly_connection(database_path()) as conn:
        grades_a, grades_b = _grades(conn, corpus, a_config, a), _grades(conn, corpus, b_config, b)
        result = compare_sets(a, grades_a, b, grades_b)
        result.update({"corpus": corpus, "a_config": a_config, "b_config": b_config})
        result["people"] = _people(conn, corpus, a_config, b_config, grades_a, grades_b)
        ids_a = dict(zip(grades_a["question_id"], grades_a["answer_id"]))
        ids_b = dict(zip(grades_b["question_id"], grades_b["answer_id"]))
        for flip in result["flips"]:
            flip["a_link"] = report_link(corpus, a_config, ids_a[flip["question_id"]])
            flip["b_link"] = report_link(corpus, b_config, ids_b[flip["question_id"]])
        if a_config != b_config and _retrieves(conn, corpus, a_config, a) and _retrieves(conn, corpus, b_config, b):
            ra, rb = pair_retrieval(conn, corpus, a_config), pair_retrieval(conn, corpus, b_config)
            if len(ra) and len(rb):
                result["retrieval"] = compare_retrieval(ra, rb, list(measures(1)))
    if as_json:
        say(json.dumps(result, indent=2))
        return
    where = f"{corpus}/{a_config}" if a_config == b_config else f"{corpus} ({a_config} vs {b_config})"
    say(compare_line(result, where))
    for name, m in result.get("retrieval", {}).items():
        say(
            f"  {name}: {m['a']} -> {m['b']} ({m['diff']:+.4f}, 95% interval "
            f"{interval_text(m['ci_low'], m['ci_high'], signed=True, digits=4)})"
        )
    if result["flips"] and limit:
        table = Table(title=f"questions that flip ({len(result['flips'])})")
        for column in ("question", "winner", "A", "B"):
            table.add_column(column)
        for flip in result["flips"][:limit]:
            table.add_row(
                flip["question_id"],
                flip["winner"].upper(),
                f"{flip['a_verdict']} ({flip['a_rule']})",
                f"{flip['b_verdict']} ({flip['b_rule']})",
            )
        console.print(table)


GATE_FAILED = 4


def _drop_in_points(value: float | None) -> float | None:
    """0 to 100 points: `inf` (or `nan`) once passed and switched the accuracy test off, unsaid."""
    if value is not None and not 0 <= value <= 100:
        raise typer.BadParameter(f"{value!r} is not a drop in accuracy points from 0 to 100")
    return value


@app.command(rich_help_panel=SYSTEMS)
def gate(
    corpus: str = typer.Option(..., "--corpus"),
    config: str = typer.Option("default", "--config"),
    baseline: str = typer.Option(..., "--baseline", help="answer set A, the system to hold up against"),
    candidate: str = typer.Option(..., "--candidate", help="answer set B, the system under test"),
    max_drop: float | None = typer.Option(
        None,
        "--max-drop",
        callback=_drop_in_points,
        help="accuracy points B may lose, measured, before the gate fails (0 to 100; default 1); with "
        "--beyond-noise, the drop the whole 95% interval must lie beyond (default 0)",
    ),  # fmt: skip
    beyond_noise: bool = typer.Option(
        False, "--beyond-noise", help="fail only when the whole 95% interval of B - A lies below -max-drop (0)"
    ),
    accept_wide: bool = typer.Option(
        False,
        "--accept-wide-interval",
        help="pass on the measured drop even where the questions are too few to see a drop of --max-drop",
    ),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """For CI: exit 4 when the candidate loses more than --max-drop points of accuracy (default 1), when the
    whole 95% interval of B - A lies below 0, or when the questions are too few to see a drop of --max-drop
    (the interval reaches further down; --accept-wide-interval passes it on the measured drop); with
    --beyond-noise, only when the whole interval lies below -max-drop (0). And when the candidate states a
    wrong amount of money, skips a question the baseline answered, or was graded by another grader. Exit 0
    when it holds up (read-only). The accuracy line says which rule decided."""
    from ragpipe.scoring.compare import compare as compare_sets
    from ragpipe.scoring.gate import gate as gate_verdict
    from ragpipe.scoring.gate import gate_lines

    with readonly_connection(database_path()) as conn:
        grades_a, grades_b = _grades(conn, corpus, config, baseline), _grades(conn, corpus, config, candidate)
    compared = compare_sets(baseline, grades_a, candidate, grades_b)
    loaded = pair_grader(loaded_rules(), corpus, config)  # the grader the pair is graded with now
    verdict = gate_verdict(compared, grades_a, grades_b, max_drop, beyond_noise, accept_wide, loaded)
    verdict.update({"corpus": corpus, "config": config})
    if as_json:
        say(json.dumps(verdict, indent=2))
    else:
        for line in gate_lines(verdict):
            say(line)
    if not verdict["passed"]:
        raise typer.Exit(GATE_FAILED)


def _pct(value) -> str:
    return "" if value is None else f"{100 * value:.1f}"


@app.command(rich_help_panel=SYSTEMS)
def leaderboard(
    corpus: str = typer.Option(..., "--corpus"),
    config: str | None = typer.Option(None, "--config", help="only this configuration (default: every one)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Every answer set of the corpus ranked by accuracy with its Wilson 95% interval, and the best one's
    lead over each other tested paired by question (bootstrap interval, McNemar's p adjusted by Holm's
    method): `tied` where the best is not distinguishable from it (read-only)."""
    from ragpipe.cli.app import read_scorecards
    from ragpipe.scoring.leaderboard import leaderboard as rank
    from ragpipe.scoring.scorecard import people_short as people_short_of
    from ragpipe.warehouse.tables import read_partition

    with readonly_connection(database_path()) as conn:
        keys = {"corpus": corpus} if config is None else {"corpus": corpus, "config": config}
        grades = read_partition(conn, "grades", keys)
    if grades.empty:
        where = corpus if config is None else f"{corpus}/{config}"
        console.print(f"{where} holds no grades yet: run `ragpipe run --corpus {corpus}` first", style="red")
        raise typer.Exit(1)
    one_config = grades["config"].nunique() == 1
    systems = {
        (s if one_config else f"{k}/{s}"): g for (k, s), g in grades.groupby(["config", "answer_set"], sort=True)
    }
    rows = rank(systems)
    cards = {
        (c["answer_set"] if one_config else f"{c['config']}/{c['answer_set']}"): c
        for c in read_scorecards(corpus, config)
    }
    for row in rows:
        card = cards.get(row["system"], {})
        row["people"] = people_short_of(card) if card else "-"
        # what a model judge spent on this system (docs/judge.md); None without a judge
        row["judge_tokens"], row["judge_cost"] = card.get("judge_tokens"), card.get("judge_cost")
        row["judge_overturned"] = card.get("judge_overturned")  # decided otherwise than the rules had
    if as_json:
        say(json.dumps({"corpus": corpus, "config": config, "systems": rows}, indent=2))
        return
    where = f"{corpus}/{grades['config'].iloc[0]}" if one_config else f"{corpus}, every configuration"
    title = f"leaderboard: {where} (grader {', '.join(sorted(set(grades['grader_version'])))})"
    labelled = any(r["people"] != "-" for r in rows)
    judged = any(r.get("judged") for r in rows)  # a model judge decided some grades (docs/judge.md)
    ungradable = any(r.get("ungradable") for r in rows)
    columns = ["#", "system", "accuracy % (correct/graded)", "[95%]"] + (["people % [95%]"] if labelled else [])
    columns += ["ungradable"] if ungradable else []
    columns += ["judge decided (overturned; tokens, cost)"] if judged else []
    columns += ["vs best [95%]", "p (Holm)"]
    shown = []
    for r in rows:
        lead = (
            "best"
            if r["vs_best"] == "best"
            else f"{r['vs_best']} {100 * r['diff']:+.1f} "
            + interval_text(100 * r["diff_low"], 100 * r["diff_high"], signed=True)
        )
        shown.append([
            str(r["rank"]),
            r["system"],
            f"{_pct(r['accuracy'])} ({r['correct']}/{r['n']})",
            interval_text(None if r["low"] is None else 100 * r["low"], None if r["high"] is None else 100 * r["high"]),
            *([r["people"]] if labelled else []),
            *([str(r["ungradable"])] if ungradable else []),
            *(
                [
                    f"{r['judged']} ({r.get('judge_overturned') or 0} overturned; {r.get('judge_tokens') or 0} "
                    f"tokens, cost {r.get('judge_cost') or 0:g})"
                ]
                if judged
                else []
            ),
            lead,
            "" if r["p_holm"] is None else f"{r['p_holm']:.3f}",
        ])  # fmt: skip
    print_fitted(console, title, columns, shown, names={"system"})
    if len({r["n"] for r in rows}) > 1:
        console.print(
            "the systems answered different numbers of questions: each test pairs the questions both answered"
        )
