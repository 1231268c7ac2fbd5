"""The `ragpipe` Typer app and what its commands share: the console, and scorecards read and printed.

Commands live beside it by subject (run, grading, grader, review); read-only
ones open the warehouse read-only and never need the orchestrator.
"""

from __future__ import annotations

import json

import pandas as pd
import typer
from rich.console import Console
from rich.table import Table

from ragpipe.evaluation.scorecard import scorecards_for_pair
from ragpipe.warehouse.settings import database_path
from ragpipe.warehouse.tables import connect, table_exists

# pretty exceptions off: rich renders a Dagster error's locals for minutes at 100% CPU; refusals are
# caught in main() and said in one line, anything else prints a plain traceback
app = typer.Typer(
    help="Evaluate RAG over PDFs, grader included.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
# the help groups commands by what they are for, in this order
PIPELINE, SYSTEMS, GRADER = (
    "Run the pipeline, read the results",
    "Compare systems",
    "The grader: rules, regrading, history",
)
console = Console(width=None if Console().is_terminal else 200)  # pipes and CI get a wide table

SCORECARD_FIELDS = [
    ("corpus", "corpus"),
    ("config", "config"),
    ("answer_set", "answers"),
    ("overall_pct", "overall %"),
    ("cpw", "correct/partial/wrong"),
    ("answerable", "answerable"),
    ("honesty", "negatives declined"),
    ("median_latency_ms", "median ms"),
    ("money", "ZERO-WRONG-MONEY"),
    ("retrieval", "R@k/hit@k"),
    ("misses", "miss r/g"),
    ("grader_version", "grader"),
]


def read_scorecards(corpus: str | None = None, config: str | None = None) -> list[dict]:
    """The latest scorecards in the warehouse, filtered, as plain dicts."""
    path = database_path()
    if not path.exists():
        return []
    conn = connect(path, read_only=True)
    try:
        if not table_exists(conn, "scorecards"):
            return []
        frame = conn.execute(
            "SELECT * FROM scorecards WHERE (? IS NULL OR corpus = ?) AND (? IS NULL OR config = ?) "
            "ORDER BY corpus, config, answer_set",
            [corpus, corpus, config, config],
        ).df()
    finally:
        conn.close()
    records = json.loads(frame.to_json(orient="records"))
    return records


def live_scorecards(corpus: str, config: str) -> list[dict]:
    """Scorecards computed now from a pair's grades (read-only), for a pair whose stored one is held back."""
    conn = connect(database_path(), read_only=True)
    try:
        cards, _ = scorecards_for_pair(conn, corpus, config)
        return json.loads(pd.DataFrame(cards).to_json(orient="records"))
    finally:
        conn.close()


def _pair_of(x, y) -> str:
    """x/y, or n/a for a set whose engine did not answer from the pair's retrieval."""
    if x is None and y is None:
        return "n/a"

    def shown(v) -> str:
        return "-" if v is None else str(int(v)) if float(v).is_integer() and v > 1 else str(v)

    return f"{shown(x)}/{shown(y)}"


def print_scorecards(cards: list[dict]) -> None:
    table = Table(title="ragpipe scorecards", show_lines=False)
    for _, header in SCORECARD_FIELDS:
        table.add_column(header, no_wrap=True)
    for c in cards:
        values = {
            **c,
            "answerable": f"{c['answerable_correct']}/{c['answerable_total']} ({c['answerable_pct']}%)",
            "honesty": f"{c['negatives_declined']}/{c['negatives_total']}",
            "money": f"{c['money_bar']} ({c['wrong_money']})",
            "cpw": f"{c['correct']}/{c['partial']}/{c['wrong']}",
            "retrieval": _pair_of(c.get("doc_recall_at_k"), c.get("page_hit_at_k")),
            "misses": _pair_of(c.get("retrieval_miss"), c.get("generation_miss")),
        }
        table.add_row(*(str(values[key]) for key, _ in SCORECARD_FIELDS))
    console.print(table)


corpus_app = typer.Typer(help="Look at a corpus.", no_args_is_help=True)
app.add_typer(corpus_app, name="corpus", rich_help_panel=PIPELINE)
