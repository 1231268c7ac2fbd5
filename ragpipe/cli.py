"""`ragpipe`: run the pipeline, read scorecards.

`run` drives Dagster (imported only there, from the `assets` package);
read-only commands open the warehouse read-only and never need Dagster.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Optional

import pandas as pd
import typer
from rich.console import Console
from rich.table import Table

from ragpipe.adapters import data_available
from ragpipe.corpus_stats import corpus_stats
from ragpipe.scorecard import scorecards_for_pair, stale_scorecards
from ragpipe.manifest import list_corpora, load_configs
from ragpipe.grading.rules import RulesError, load_rules
from ragpipe.settings import corpora_dir, database_path, rules_path, warehouse_dir
from ragpipe.warehouse import connect, read_partition, table_exists
from ragpipe.warehouse_lock import WarehouseBusy, WarehouseUnwritable, writing

# pretty exceptions off: rich renders a Dagster error's locals for minutes at 100% CPU; refusals are
# caught in main() and said in one line, anything else prints a plain traceback
app = typer.Typer(help="Evaluate RAG over PDFs, grader included.", no_args_is_help=True, add_completion=False,
                  pretty_exceptions_enable=False)
console = Console(width=None if Console().is_terminal else 200)  # pipes and CI get a wide table

SCORECARD_FIELDS = [
    ("corpus", "corpus"), ("config", "config"), ("answer_set", "answers"), ("overall_pct", "overall %"),
    ("cpw", "correct/partial/wrong"), ("answerable", "answerable"),
    ("honesty", "negatives declined"), ("median_latency_ms", "median ms"), ("money", "ZERO-WRONG-MONEY"),
    ("grader_version", "grader"),
]


def read_scorecards(corpus: Optional[str] = None, config: Optional[str] = None) -> list[dict]:
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
        return json.loads(pd.DataFrame(scorecards_for_pair(conn, corpus, config)).to_json(orient="records"))
    finally:
        conn.close()


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
        }
        table.add_row(*(str(values[key]) for key, _ in SCORECARD_FIELDS))
    console.print(table)


def _dagster_instance():
    """The Dagster instance at $DAGSTER_HOME (default warehouse/dagster_home), where `dagster dev` finds
    the run history. Opened under a lock in that folder: two commands starting at once on a new home
    would otherwise both create its SQLite schema and one would fail."""
    from dagster import DagsterInstance
    from filelock import FileLock

    home = Path(os.environ.setdefault("DAGSTER_HOME", str(warehouse_dir() / "dagster_home")))
    home.mkdir(parents=True, exist_ok=True)
    with FileLock(str(home / ".init.lock")):
        config = home / "dagster.yaml"
        if not config.exists():
            config.write_text("telemetry:\n  enabled: false  # this machine reaches no network but package registries\n")
        return DagsterInstance.get()


def _use_data_dir(corpora: list[str], data_dir: Optional[Path]) -> None:
    """Point one corpus's adapter at a folder laid out like its upstream repository."""
    if data_dir is None:
        return
    if len(corpora) != 1:
        raise typer.BadParameter("--data-dir needs exactly one --corpus")
    manifest = list_corpora(corpora_dir())[corpora[0]]
    if not manifest.data_dir_env:
        raise typer.BadParameter(f"corpus {corpora[0]!r} takes no data folder")
    os.environ[manifest.data_dir_env] = str(data_dir.resolve())


def _engine_override(engine: str, base_url, model, api_key_env: str, url, concurrency, answers_file=None) -> dict:
    """The engine a run uses instead of the configuration's. Holds the key's variable name, never the key."""
    if engine == "openai":
        if not base_url or not model:
            raise typer.BadParameter("--engine openai needs --base-url and --model")
        settings = {"base_url": base_url, "model": model, "api_key_env": api_key_env}
    elif engine == "http":
        if not url:
            raise typer.BadParameter("--engine http needs --url")
        settings = {"url": url}
    elif engine == "import":
        if not answers_file:
            raise typer.BadParameter("--engine import needs --answers FILE")
        settings = {"path": str(answers_file.resolve())}
    elif engine == "extractive":
        settings = {}
    else:
        raise typer.BadParameter(f"unknown engine {engine!r}; known: openai, http, import, extractive")
    return {"engine": engine, "settings": settings, "concurrency": concurrency or (1 if engine == "extractive" else 4)}


def _check_names(names: list[str], known: list[str], what: str) -> None:
    for name in names:
        if name not in known:
            raise typer.BadParameter(f"unknown {what} {name!r}; known: {', '.join(known)}")


@app.command()
def run(
    corpus: list[str] = typer.Option(None, "--corpus", help="corpus to run (repeatable); default demo"),
    config: list[str] = typer.Option(None, "--config", help="configuration (repeatable); default all"),
    all_corpora: bool = typer.Option(False, "--all", help="every corpus whose data is present (and every configuration unless --config)"),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="the corpus's data folder (e.g. your clone of the upstream repository)"),
    engine: Optional[str] = typer.Option(None, "--engine", help="override the configuration's engine: openai | http | import | extractive"),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="openai: the server, e.g. http://127.0.0.1:8080/v1"),
    model: Optional[str] = typer.Option(None, "--model", help="openai: the model name"),
    api_key_env: str = typer.Option("OPENAI_API_KEY", "--api-key-env", help="openai: the environment variable holding the key (never stored)"),
    url: Optional[str] = typer.Option(None, "--url", help="http: the RAG service's endpoint"),
    answers_file: Optional[Path] = typer.Option(None, "--answers", help="import: a JSONL file of question_id, answer, citations, latency_ms"),
    concurrency: Optional[int] = typer.Option(None, "--concurrency", min=1, max=64, help="requests in flight (default 4)"),
    shards: Optional[int] = typer.Option(None, "--shards", min=1, max=1024, help="cut answers and grades into N shards by question-id hash"),
    processes: bool = typer.Option(False, "--processes", help="run each pair's steps, shards side by side, in worker processes"),
) -> None:
    """Materialize every asset for the corpus (and configurations), then print the scorecards."""
    if shards:
        os.environ["RAGPIPE_SHARDS"] = str(shards)  # read by every step process
    if engine:
        os.environ["RAGPIPE_ENGINE"] = json.dumps(_engine_override(engine, base_url, model, api_key_env, url, concurrency, answers_file))
        os.environ["RAGPIPE_PROGRESS_BAR"] = "1"
    manifests = list_corpora(corpora_dir())
    configs_known = sorted(load_configs(corpora_dir()))
    _check_names(corpus or [], sorted(manifests), "corpus")
    _check_names(config or [], configs_known, "configuration")
    _use_data_dir(corpus or [], data_dir)
    if all_corpora:
        corpora = [name for name, m in sorted(manifests.items()) if data_available(m)]
        for name in sorted(set(manifests) - set(corpora)):
            console.print(f"[yellow]skipping {name}: its data folder {manifests[name].data_path} is absent[/yellow]")
    else:
        corpora = corpus or ["demo"]
    configs = config or configs_known
    instance = _dagster_instance()
    from assets.runner import busy_in, failed_money_checks, failure_in, run_corpus

    blocked: list[dict] = []
    for name in corpora:
        console.print(f"materializing {name} x {', '.join(configs)}")
        with writing(warehouse_dir(), f"ragpipe run --corpus {name}"):
            results = run_corpus(name, configs, instance=instance, in_processes=processes)
        money = failed_money_checks(results)
        blocked.extend(money)
        busy = busy_in(results)
        if busy:
            raise WarehouseBusy(busy)
        if any(not r.success for r in results) and len(money) < sum(not r.success for r in results):
            typer.echo(f"run for {name} failed: {failure_in(results)}; details in `dagster dev -w workspace.yaml`", err=True)
            raise typer.Exit(1)
    blocked_pairs = {(b["corpus"], b["config"]) for b in blocked}
    cards = [c for c in read_scorecards() if c["corpus"] in corpora and c["config"] in configs and (c["corpus"], c["config"]) not in blocked_pairs]
    print_scorecards(cards + [card for pair in sorted(blocked_pairs) for card in live_scorecards(*pair)])
    for b in blocked:
        console.print(
            f"[red]ZERO-WRONG-MONEY FAIL on {b['corpus']}/{b['config']}: {b['wrong_money']} wrong money figure(s) in "
            f"{', '.join(b['offending_questions'])}. The blocking check held back this pair's scorecard; "
            f"the line above is computed from its grades.[/red]"
        )
    if blocked:
        raise typer.Exit(1)


corpus_app = typer.Typer(help="Look at a corpus.", no_args_is_help=True)
app.add_typer(corpus_app, name="corpus")


@corpus_app.command("stats")
def corpus_stats_command(
    name: str = typer.Argument(..., help="corpus name, as in corpora/<name>.yaml"),
    as_json: bool = typer.Option(False, "--json"),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="the corpus's data folder"),
    refresh: bool = typer.Option(False, "--refresh", help="re-materialize the corpus stages first"),
) -> None:
    """Documents, pages, questions by kind, ungradable questions, needles kept and rejected."""
    manifests = list_corpora(corpora_dir())
    _check_names([name], sorted(manifests), "corpus")
    _use_data_dir([name], data_dir)
    if refresh or not _has_corpus(name):
        _materialize_corpus_stages(name)
    conn = connect(database_path(), read_only=True)
    try:
        stats = corpus_stats(conn, name)
    finally:
        conn.close()
    if as_json:
        typer.echo(json.dumps(stats, indent=2))
        return
    table = Table(title=f"corpus {name}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in stats.items():
        if key != "ungradable_questions":
            table.add_row(key, str(value))
    console.print(table)
    for question_id, reason in stats["ungradable_questions"].items():
        console.print(f"ungradable {question_id}: {reason}")


def _materialize_corpus_stages(name: str) -> None:
    """Ingest, questions and needles of one corpus, through Dagster; exit 1 if that fails."""
    instance = _dagster_instance()
    from assets.runner import run_corpus_stages

    with console.status(f"materializing the corpus stages of {name} (ingest, questions, needles)"), writing(warehouse_dir(), f"materialize {name}"):
        result = run_corpus_stages(name, instance=instance)
    if not result.success:
        console.print(f"[red]materializing {name} failed[/red]")
        raise typer.Exit(1)


def _has_corpus(name: str, folder: Optional[Path] = None) -> bool:
    """Has the warehouse got this corpus's stages (needles are the last of them),
    ingested from `folder` when one is given?"""
    path = database_path()
    if not path.exists():
        return False
    conn = connect(path, read_only=True)
    try:
        if not (table_exists(conn, "needles") and conn.execute("SELECT count(*) FROM needles WHERE corpus = ?", [name]).fetchall()[0][0]):
            return False
        if folder is None:
            return True
        files = conn.execute("SELECT count(*) FROM documents WHERE corpus = ?", [name]).fetchall()[0][0]
        return files == len(list((folder / "pdfs").glob("*.pdf")))
    finally:
        conn.close()


@app.command()
def scorecard(
    corpus: Optional[str] = typer.Option(None, help="only this corpus"),
    config: Optional[str] = typer.Option(None, help="only this configuration"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON list, one object per pair"),
) -> None:
    """The latest scorecards from the warehouse (read-only); warns when a pair was graded again since."""
    cards = read_scorecards(corpus, config)
    if cards:
        conn = connect(database_path(), read_only=True)
        try:
            for warning in stale_scorecards(conn, cards):
                typer.echo(f"warning: {warning}", err=True)
        finally:
            conn.close()
    if as_json:
        typer.echo(json.dumps(cards, indent=2))
        return
    if not cards:
        console.print("no scorecards yet: run `ragpipe run` first")
        raise typer.Exit(1)
    print_scorecards(cards)


@app.command()
def grade(
    questions: Path = typer.Option(..., "--questions", exists=True, dir_okay=False, help="JSONL: id, question, kind, gold_answer, ..."),
    answers: Path = typer.Option(..., "--answers", exists=True, dir_okay=False, help="JSONL: question_id, answer, citations"),
    rules_file: Optional[Path] = typer.Option(None, "--rules", exists=True, dir_okay=False, help="grader rules (default: the packaged rules)"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per answer, one per line"),
) -> None:
    """Grade any answers against any questions with the current rules: no corpus, no warehouse."""
    from ragpipe.grading.adhoc import grade_files

    try:
        rows, problems = grade_files(questions, answers, load_rules(rules_file or rules_path()))
    except RulesError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2)
    for problem in problems:
        typer.echo(f"skipped {problem}", err=True)
    if as_json:
        for row in rows:
            typer.echo(json.dumps(row, sort_keys=True))
        return
    table = Table(title=f"grades ({len(rows)} answers)")
    for column in ("question_id", "verdict", "declined", "money_question", "failure", "rule"):
        table.add_column(column)
    for row in rows:
        table.add_row(*(str(row[c]) for c in ("question_id", "verdict", "declined", "money_question", "failure", "rule")))
    console.print(table)


@app.command()
def agreement(
    labels: Path = typer.Option(..., "--labels", exists=True, help="a labelled-answers JSONL file (generic format, docs/agreement.md), "
                                "or a folder of FinanceBench's upstream files"),
    data: Optional[Path] = typer.Option(None, "--data", exists=True, file_okay=False, help="the FinanceBench folder (with a folder of labels)"),
    rules_file: Optional[Path] = typer.Option(None, "--rules", exists=True, dir_okay=False, help="grader rules (default: the current rules)"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Grade human-labelled answers with the current rules and report agreement with the people.

    A JSONL file needs nothing else: its gold answers are the gold text. A folder of FinanceBench
    files reuses the warehouse's ingested FinanceBench pages (ingesting them first if absent);
    questions, needles and grades are derived afresh with the current code and rules."""
    try:
        rules = load_rules(rules_file or rules_path())
    except RulesError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2)
    if labels.is_file():
        from ragpipe.grading.labelled_jsonl import agreement_for_jsonl

        try:
            report = agreement_for_jsonl(labels, rules)
        except LookupError as exc:
            console.print(f"[red]{exc}[/red]")
            raise typer.Exit(1)
        for problem in report["problems"]:
            typer.echo(f"skipped {problem}", err=True)
        _print_agreement(report, as_json)
        return
    if data is None:
        console.print("[red]--labels is a folder of FinanceBench files: give the FinanceBench folder with --data[/red]")
        raise typer.Exit(2)
    os.environ["RAGPIPE_FINANCEBENCH_DIR"] = str(data.resolve())
    if not _has_corpus("financebench", data.resolve()):
        _materialize_corpus_stages("financebench")
    from ragpipe.grading.agreement import agreement_for_labels

    conn = connect(database_path(), read_only=True)
    try:
        pages = read_partition(conn, "pages", {"corpus": "financebench"})
    finally:
        conn.close()
    manifest = list_corpora(corpora_dir())["financebench"]
    _print_agreement(agreement_for_labels(pages, manifest, labels, rules), as_json)


def _print_agreement(report: dict, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    table = Table(title=f"agreement with people (grader {report['grader_version']}, n={report['n']})")
    for column in ("scope", "accuracy", "kappa", "refusal F1", "false correct", "false correct (numeric)"):
        table.add_column(column)
    scopes = [("overall", report)] + list(report["by_question_type"].items()) + list(report["by_file"].items())
    for name, r in scopes:
        table.add_row(name, str(r["accuracy"]), str(r["kappa"]), str(r["refusal"]["f1"]), str(r["false_correct"]), str(r["false_correct_numeric"]))
    console.print(table)


from ragpipe import cli_grader, cli_review  # noqa: E402,F401  registers regrade, delta, whatif, audit, sql, review


def refusal_in(exc: BaseException) -> Exception | None:
    """The refusal (bad corpus, manifest or rules) behind an error, however deep Dagster wrapped it."""
    from ragpipe.manifest import ManifestError
    from ragpipe.preflight import CorpusRefused

    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, (CorpusRefused, ManifestError, RulesError, WarehouseBusy, WarehouseUnwritable)):
            return e
        todo += [e.__cause__, e.__context__, getattr(e, "user_exception", None)]
    return None


def main() -> None:
    """The `ragpipe` command: a busy warehouse is a message and exit code 3, a refused input a message
    naming file, line and field and exit code 1, never a traceback."""
    try:
        app()
    except WarehouseBusy as exc:
        console.print(f"[red]{exc}[/red]")
        sys.exit(3)
    except Exception as exc:
        refused = refusal_in(exc)
        if refused is None:
            raise
        typer.echo(str(refused), err=True)  # plain text: a message may hold [brackets]
        sys.exit(3 if isinstance(refused, WarehouseBusy) else 1)


if __name__ == "__main__":
    main()
