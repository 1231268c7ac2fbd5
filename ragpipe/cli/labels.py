"""`ragpipe labels import` and `ragpipe labels export`: people's labels in and out of the warehouse."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from ragpipe.cli.app import GRADER, app, console, say
from ragpipe.cli.orchestrator import orchestrator
from ragpipe.warehouse.lock import WarehouseBusy, open_for_writing, writing
from ragpipe.warehouse.settings import database_path, warehouse_dir
from ragpipe.warehouse.sql import readonly_connection

labels_app = typer.Typer(help="People's labels: import, export (the human_labels table).", no_args_is_help=True)
app.add_typer(labels_app, name="labels", rich_help_panel=GRADER)


@labels_app.command("import")
def import_labels(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, help="JSONL: corpus, config, answer_set, ..."),
) -> None:
    """Import people's labels (one JSON object per line: corpus, config, answer_set, question_id, label
    correct|incorrect|refusal, optional labeller and note; what `labels export` writes imports as it is).
    Bad lines are reported as file:line:field and skipped; of one labeller's lines on one answer the last
    wins; the pairs that got labels have their scorecards recomputed."""
    from ragpipe.labels.import_lines import read_label_lines
    from ragpipe.labels.store import add_labels, counting

    with writing(warehouse_dir(), "ragpipe labels import"):
        conn = open_for_writing(database_path())
        try:
            read = read_label_lines(conn, path)
            touched = {r.answer_id for r in read.rows}
            before = counting(conn, touched)
            added = add_labels(conn, read.rows)
            after = counting(conn, touched)
        finally:
            conn.close()
        for problem in read.problems:
            say(f"skipped {problem}", err=True)
        pairs = sorted({(r.corpus, r.config) for r in read.rows}) if added else []
        for corpus, config in pairs:
            outcome = orchestrator().rescore(corpus, config)
            if outcome.busy:
                raise WarehouseBusy(outcome.busy)
    unchanged = read.sound_lines - added
    said = f", {unchanged} said again what is stored or what a later line says" if unchanged else ""
    console.print(f"imported {added} label(s) ({read.lines_skipped} line(s) skipped{said})")
    moved = sum(before.get(a) != after.get(a) for a in touched)
    if added == 0:
        console.print("nothing changed: no label that counts moved (every sound line says what the warehouse holds)")
    else:
        console.print(f"{moved} answer(s) now count another label than before (the label received last counts)")
    if read.problems and not read.sound_lines:
        raise typer.Exit(1)


@labels_app.command("export")
def export_labels(
    corpus: str | None = typer.Option(None, "--corpus"),
    config: str | None = typer.Option(None, "--config"),
    revisions: bool = typer.Option(False, "--revisions", help="every label ever given, not only the latest"),
) -> None:
    """People's labels as JSON Lines on stdout: the latest per answer, with `current` (false: the answer
    changed since it was labelled, and the label no longer counts)."""
    from ragpipe.labels.store import latest_labels
    from ragpipe.warehouse.nulls import records
    from ragpipe.warehouse.tables import table_exists

    with readonly_connection(database_path()) as conn:
        if not table_exists(conn, "human_labels"):
            return
        if revisions:
            frames = [
                conn.execute(
                    "SELECT * FROM human_labels WHERE (? IS NULL OR corpus = ?) AND (? IS NULL OR config = ?) "
                    "ORDER BY corpus, config, answer_set, question_id, labelled_at",
                    [corpus, corpus, config, config],
                ).df()
            ]
        else:
            pairs = conn.execute(
                "SELECT DISTINCT corpus, config FROM human_labels WHERE (? IS NULL OR corpus = ?) "
                "AND (? IS NULL OR config = ?) ORDER BY ALL",
                [corpus, corpus, config, config],
            ).fetchall()
            frames = [latest_labels(conn, c, k) for c, k in pairs]
    for frame in frames:
        for row in records(frame):
            say(json.dumps(row, sort_keys=True, default=str))


@app.command(rich_help_panel=GRADER)
def label(
    corpus: str = typer.Option(..., "--corpus"),
    config: str = typer.Option(..., "--config"),
    answers: str = typer.Option(..., "--answers", help="the answer set (system) to label"),
    n: int = typer.Option(50, "--n", min=1, help="how many of its answers to draw"),
    seed: int = typer.Option(0, "--seed", help="the draw's seed (recorded: the same seed resumes the same draw)"),
    labeller: str = typer.Option("unknown", "--labeller", help="who labels (stored with each label)"),
    port: int = typer.Option(0, "--port", min=0, max=65535, help="the page's port on 127.0.0.1 (0: any free one)"),
) -> None:
    """Label a random sample of a system's answers in the browser: a page on 127.0.0.1 only, each click
    stored at once. Stop it with Ctrl-C (or SIGTERM); the pair's scorecards are then recomputed with the labels."""
    from ragpipe.labels.label import labeller_refused
    from ragpipe.review.label_session import open_session

    if refused := labeller_refused(labeller):  # a label the page stores must import back
        raise typer.BadParameter(refused, param_hint="--labeller")
    session = open_session(corpus, config, answers, n, seed, labeller)
    if not session.items:
        console.print(f"no answers of {answers!r} in {corpus}/{config}", style="red")
        raise typer.Exit(1)
    from ragpipe.review.label_page import serve

    def ready(bound: int) -> None:
        say(f"labelling {len(session.items)} answers of {answers} at http://127.0.0.1:{bound}/ "
                   "(Ctrl-C to stop)")  # fmt: skip
        sys.stdout.flush()

    serve(session, port, ready)  # until Ctrl-C or SIGTERM, which end it the same way
    with writing(warehouse_dir(), "ragpipe label"):
        outcome = orchestrator().rescore(corpus, config)
    if outcome.busy:
        raise WarehouseBusy(outcome.busy)
    console.print(
        f"{len(session.labelled())} of {len(session.items)} labelled; scorecards of {corpus}/{config} recomputed"
    )
