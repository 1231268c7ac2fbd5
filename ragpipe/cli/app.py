"""The `ragpipe` Typer app and what its commands share: the console, and scorecards read and printed.

Commands live beside it by subject (run, grading, grader, review); read-only
ones open the warehouse read-only and never need the orchestrator.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from ragpipe.cli.fitted import print_fitted
from ragpipe.inputs.terminal import PrintableConsole, printable
from ragpipe.warehouse.settings import database_path

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
# markup off: what the console prints holds user text (answers, set names, question ids, SQL results) that
# must never be read as markup ("[/INST]" crashed tables); colour is given as a style
# and what it prints has its control characters escaped (inputs/terminal.py): an answer holding ESC ] 0 ; ...
# once retitled the window and cleared the screen
console = PrintableConsole(width=None if Console().is_terminal else 200, markup=False)  # pipes and CI: wide


def loaded_rules(path: Path | None = None):
    """The rules of `path` (else RAGPIPE_RULES, else the package's), or exit 2 saying why in a line."""
    from ragpipe.grading.rules import RulesError, load_rules
    from ragpipe.warehouse.settings import rules_path

    try:
        return load_rules(path or rules_path())
    except RulesError as exc:
        console.print(f"{exc}", style="red")
        raise typer.Exit(2) from None


def pair_grader(rules, corpus: str, config: str, judge: str | None = None) -> str:
    """The version `corpus/config` is graded with: `rules` named for its judge (`judge`, else --judge or
    RAGPIPE_JUDGE, else the one its configuration names)."""
    from ragpipe.judge import pair_judging
    from ragpipe.warehouse.settings import corpora_dir, judge_setting, judges_path

    override = judge or judge_setting()[0]
    return pair_judging(rules, judges_path(), corpora_dir(), corpus, config, override).rules.version


def say(message: object = "", err: bool = False, nl: bool = True) -> None:
    """typer.echo, with the control characters of what it is given escaped (every command's plain lines)."""
    typer.echo(printable(str(message)), err=err, nl=nl)


# `ragpipe scorecard` fits NARROW_WIDTH columns with these; `--wide` shows every field
SCORECARD_FIELDS = [
    ("pair", "corpus/config"),
    ("answer_set", "answers"),
    ("overall_pct", "accuracy %"),
    ("people", "people % [95%]"),
    ("firm", "firm %"),
    ("cpwu", "correct/partial/wrong/ungradable"),
    ("answerable", "answerable"),
    ("honesty", "negatives declined"),
    ("median_latency_ms", "median ms"),
    ("tokens", "tokens p/c"),
    ("money", "ZERO-WRONG-MONEY"),
    ("retrieval", "R@k/hit@k"),
    ("misses", "miss r/g"),
    ("judge", "judge decided/overturned"),
    ("grader_version", "grader"),
]
NARROW_FIELDS = [  # one table per pair, titled with it
    ("answer_set", "answers"),
    ("overall_pct", "accuracy %"),
    ("people_short", "people % [95%]"),
    ("cpwu", "c/p/w/u"),
    ("honesty", "declined"),
    ("money", "ZERO-WRONG-MONEY"),
]
NARROW_WIDTH = 100


def read_scorecards(corpus: str | None = None, config: str | None = None) -> list[dict]:
    """The latest scorecards in the warehouse, filtered, as plain dicts."""
    from ragpipe.warehouse.tables import connect, table_exists

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


def say_blocked(failed_checks: list[dict]) -> None:
    """One line per pair whose ZERO-WRONG-MONEY check failed: the sets it blocked and where."""
    for b in failed_checks:
        console.print(
            f"ZERO-WRONG-MONEY FAIL on {b['corpus']}/{b['config']}: answer set(s) {', '.join(b['blocked_sets'])} "
            f"blocked ({b['wrong_money']} wrong money figure(s) in {', '.join(b['offending_questions'])}); "
            "the pair's other sets stand",
            style="red",
        )


def _pair_of(x, y) -> str:
    """x/y, or n/a for a set whose engine did not answer from the pair's retrieval."""
    if x is None and y is None:
        return "n/a"

    def shown(v) -> str:
        return "-" if v is None else str(int(v)) if float(v).is_integer() and v > 1 else str(v)

    return f"{shown(x)}/{shown(y)}"


def _shown(card: dict) -> dict:
    """A scorecard's values as the table shows them."""
    from ragpipe.scoring.scorecard import money_bar_text, people_short, people_text

    c = card
    return {
        **c,
        "pair": f"{c['corpus']}/{c['config']}",
        "answerable": f"{c['answerable_correct']}/{c['answerable_total']} ({c['answerable_pct']}%)",
        "honesty": f"{c['negatives_declined']}/{c['negatives_total']}",
        "money": money_bar_text(c),
        "people": people_text(c),
        "people_short": people_short(c),
        "firm": "-" if c.get("firm_pct") is None else str(c["firm_pct"]),
        "cpwu": f"{c['correct']}/{c['partial']}/{c['wrong']}/{c.get('ungradable', 0)}",
        "retrieval": NO_DOCUMENTS if _no_documents(c) else _pair_of(c.get("doc_recall_at_k"), c.get("page_hit_at_k")),
        "misses": NO_DOCUMENTS if _no_documents(c) else _pair_of(c.get("retrieval_miss"), c.get("generation_miss")),
        "tokens": "-" if not c.get("usage_reported") else f"{c['prompt_tokens']}/{c['completion_tokens']}",
        "judge": _judged(c),
    }


NO_DOCUMENTS = "no documents"  # a corpus of questions and answer files alone: nothing was retrieved


def _no_documents(card: dict) -> bool:
    return card.get("documents") == 0


def _judged(card: dict) -> str:
    """A model judge's part in a scorecard: answers it decided / overturned; "-" for the rules alone."""
    decided = card.get("judge_decided")
    if decided is None or decided != decided:  # NaN: a card stored before the judge was counted
        return "-"
    overturned = card.get("judge_overturned")
    return f"{int(decided)}/{'?' if overturned is None or overturned != overturned else int(overturned)}"


def print_scorecards(cards: list[dict], wide: bool = False) -> None:
    """The scorecards: a table per pair of NARROW_WIDTH columns at most (a name is never broken, ragpipe/cli/
    fitted.py: a block per answer set where the table cannot fit), or one table of every field at its natural
    width (`--wide`: a terminal narrower than that wraps the lines)."""
    if wide:
        table = _table("ragpipe scorecards", SCORECARD_FIELDS, cards)
        natural = Measurement.get(console, console.options.update(width=10_000), table).maximum
        # rich caps print(width=) at the console's width (200 in a pipe): a console as wide as the table
        PrintableConsole(width=natural, markup=False, file=console.file).print(table, crop=False)
        return
    width = min(console.width, NARROW_WIDTH)
    pairs = dict.fromkeys((c["corpus"], c["config"]) for c in cards)
    for corpus, config in pairs:
        shown = [_shown(c) for c in cards if (c["corpus"], c["config"]) == (corpus, config)]
        rows = [[str(values[key]) for key, _ in NARROW_FIELDS] for values in shown]
        headers = [header for _, header in NARROW_FIELDS]
        print_fitted(
            console, f"{corpus}/{config}", headers, rows, names={"answers"}, width=width, lines=box.SIMPLE_HEAD
        )
    for note in scorecard_notes(cards):
        console.print(note, width=width, soft_wrap=False)


def scorecard_notes(cards: list[dict]) -> list[str]:
    """The lines under the scorecards: the grader, the columns' letters, and what a word in them means."""
    from ragpipe.scoring.scorecard import money_bar_text

    graders = sorted({c["grader_version"] for c in cards})
    notes = [
        f"grader {', '.join(graders)}; accuracy: correct of graded, the ungradable (u) apart; "
        "c/p/w/u: correct/partial/wrong/ungradable; --wide: every column"
    ]
    notes += mixed_graders(cards)
    if any(c.get("judged_as") == "gold answer" for c in cards):
        notes.append(JUDGED_AS_GOLD)
    if any("exempt" in money_bar_text(c) for c in cards):
        notes.append(EXEMPT)
    return notes


def mixed_graders(cards: list[dict]) -> list[str]:
    """A line for each corpus whose configurations were graded by different graders (one with a judge, one
    without): their accuracies side by side were measured with two rulers."""
    lines = []
    for corpus in dict.fromkeys(c["corpus"] for c in cards):
        by = {c["config"]: c["grader_version"] for c in cards if c["corpus"] == corpus}
        if len(set(by.values())) > 1:
            named = "; ".join(f"{config} by {version}" for config, version in by.items())
            lines.append(
                f"{corpus}: its configurations are graded by different graders ({named}), so their accuracies "
                "are not measured with one ruler: name one judge for all in corpora/configs.yaml, or none"
            )
    return lines


EXEMPT = (
    "exempt: a set people labelled states a wrong amount of money, but is not blocked: such sets are kept to "
    "measure the grader against the people, not to rank a system"
)

JUDGED_AS_GOLD = (
    "labeled:* sets are judged as their labellers judged them: every question against its gold answer, "
    "so they count no negative or ambiguous questions"
)


def _table(title: str, fields: list[tuple[str, str]], cards: list[dict]) -> Table:
    """Every field at its natural width, nothing wrapped (`--wide`)."""
    table = Table(title=title, box=box.SIMPLE_HEAD, collapse_padding=True)
    for _, header in fields:
        table.add_column(header, no_wrap=True, overflow="fold")
    for card in cards:
        values = _shown(card)
        table.add_row(*(str(values[key]) for key, _ in fields))
    return table


corpus_app = typer.Typer(help="Make a corpus of your question file, or look at one.", no_args_is_help=True)
app.add_typer(corpus_app, name="corpus", rich_help_panel=PIPELINE)
