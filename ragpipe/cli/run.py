"""`ragpipe run`, `ragpipe corpus stats`, `ragpipe scorecard`: materialize, then read what came of it."""

from __future__ import annotations

import errno
import json
import os
from dataclasses import replace
from pathlib import Path

import typer
import yaml
from rich.table import Table
from rich.text import Text

from ragpipe.answering.retrieving import ENGINE_NAMES
from ragpipe.cli.app import PIPELINE, app, console, corpus_app, print_scorecards, read_scorecards, say, say_blocked
from ragpipe.cli.judge import JUDGE_HELP, JUDGE_ON_HELP, use_judge
from ragpipe.cli.orchestrator import WHERE_DETAILS, RunSettings, orchestrator
from ragpipe.inputs.names import NameRefused, answer_set_name
from ragpipe.warehouse.lock import WarehouseBusy, writing
from ragpipe.warehouse.settings import corpora_dir, database_path, warehouse_dir

MAX_SAID = 20  # lines named on the terminal; the answers table keeps an error row for each question


def _use_data_dir(corpora: list[str], data_dir: Path | None) -> None:
    """Point one corpus's adapter at a folder laid out like its upstream repository, or at the folder that
    holds it as `<corpus>/` (`--data-dir ../shared/data` for FinanceBench's `../shared/data/financebench`)."""
    from ragpipe.corpus.adapters import missing_data
    from ragpipe.corpus.manifest import list_corpora

    if data_dir is None:
        return
    if len(corpora) != 1:
        raise typer.BadParameter("--data-dir needs exactly one --corpus")
    manifest = list_corpora(corpora_dir())[corpora[0]]
    if not manifest.data_dir_env:
        raise typer.BadParameter(f"corpus {corpora[0]!r} takes no data folder")
    try:
        given, held = data_dir.resolve(strict=True), data_dir / manifest.name
    except (OSError, RuntimeError) as exc:  # a link loop is a RuntimeError on Python 3.11, an OSError later
        raise typer.BadParameter(f"--data-dir {data_dir}: {_unreadable(exc)}") from None
    os.environ[manifest.data_dir_env] = str(given)
    if missing_data(manifest) and held.is_dir():  # the parent of the corpus's folder
        os.environ[manifest.data_dir_env] = str(held.resolve())
        if missing_data(manifest):  # neither reads: the error names the folder given
            os.environ[manifest.data_dir_env] = str(given)


def _unreadable(exc: BaseException) -> str:
    if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP:
        return "a loop of symbolic links, no folder"
    if isinstance(exc, FileNotFoundError):
        return "no such folder"
    return exc.strerror or str(exc) if isinstance(exc, OSError) else str(exc)


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
        settings = _import_settings(answers_file)
    elif engine == "extractive":
        settings = {}
    else:
        raise typer.BadParameter(f"unknown engine {engine!r}; known: {', '.join(ENGINE_NAMES)}")
    return {"engine": engine, "settings": settings, "concurrency": concurrency or (1 if engine == "extractive" else 4)}


def _import_settings(path: Path) -> dict:
    """An answers file's settings, once each line it cannot read is said (file:line:field) and a file
    none of whose lines can be read is refused in one line, before any run."""
    from ragpipe.answering.engines.import_file import ImportEngine, unreadable_file

    engine = ImportEngine(str(path.resolve()))
    for problem in engine.problems[:MAX_SAID]:
        say(f"skipped {problem}", err=True)
    if len(engine.problems) > MAX_SAID:
        say(f"... and {len(engine.problems) - MAX_SAID} more line(s) skipped", err=True)
    refused = unreadable_file(engine)
    if refused:
        raise typer.BadParameter(refused, param_hint="--answers")
    return engine.settings


def _parse_settings(pairs: list[str]) -> dict:
    """KEY=VALUE strings as settings; each value read as YAML, so 0.3 is a number and true a boolean."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"--setting {pair!r}: expected KEY=VALUE")
        out[key.strip()] = yaml.safe_load(value)
    return out


def _set_name(name: str | None) -> str | None:
    try:
        return None if name is None else answer_set_name(name)
    except NameRefused as exc:
        raise typer.BadParameter(str(exc)) from None


def _check_names(names: list[str], known: list[str], what: str) -> None:
    for name in names:
        if name not in known:
            raise typer.BadParameter(f"unknown {what} {name!r}; known: {', '.join(known)}")


@app.command(rich_help_panel=PIPELINE)
def run(
    corpus: list[str] = typer.Option(None, "--corpus", help="corpus to run (repeatable); default demo"),
    config: list[str] = typer.Option(None, "--config", help="configuration (repeatable); default all"),
    all_corpora: bool = typer.Option(
        False, "--all", help="every corpus whose data is present (and every configuration unless --config)"
    ),
    data_dir: Path | None = typer.Option(
        None,
        "--data-dir",
        help="the corpus's data folder (your clone of the upstream repository), or the folder holding it as "
        "<corpus>/ (e.g. ../shared/data)",
    ),
    engine: str | None = typer.Option(
        None, "--engine", help=f"override the configuration's engine: {' | '.join(ENGINE_NAMES)}"
    ),
    base_url: str | None = typer.Option(None, "--base-url", help="openai: the server, e.g. http://127.0.0.1:8080/v1"),
    model: str | None = typer.Option(None, "--model", help="openai: the model name"),
    api_key_env: str = typer.Option(
        "OPENAI_API_KEY", "--api-key-env", help="openai: the environment variable holding the key (never stored)"
    ),
    url: str | None = typer.Option(None, "--url", help="http: the RAG service's endpoint"),
    answers_file: Path | None = typer.Option(
        None, "--answers", help="import: a JSONL file of question_id, answer, citations, latency_ms"
    ),
    concurrency: int | None = typer.Option(None, "--concurrency", min=1, max=64, help="requests in flight (default 4)"),
    shards: int | None = typer.Option(
        None, "--shards", min=1, max=1024, help="cut answers and grades into N shards by question-id hash"
    ),
    processes: bool = typer.Option(
        False, "--processes", help="run each pair's steps, shards side by side, in worker processes"
    ),
    executor: str = typer.Option(
        "in-process",
        "--executor",
        help="in-process, processes (= --processes), or celery: steps on Celery workers (docs/deploy.md)",
    ),
    engine_settings: list[str] = typer.Option(
        None, "--setting", help="with --engine: an engine setting KEY=VALUE (repeatable), e.g. min_support=0.3"
    ),
    answer_set: str | None = typer.Option(
        None,
        "--answer-set",
        help="with --engine: the name of this system's answers in the pair (default: the engine's)",
    ),
    judge: str | None = typer.Option(None, "--judge", help=JUDGE_HELP),
    judge_on: str = typer.Option("tentative", "--judge-on", help=JUDGE_ON_HELP),
) -> None:
    """Materialize every asset for the corpus (and configurations), then print the scorecards.

    Each engine's answers are an answer set of the pair: running another engine (or the same one under
    another --answer-set) adds its set beside the ones there; re-running one refreshes only its own."""
    from ragpipe.corpus.adapters import data_problem
    from ragpipe.corpus.manifest import list_corpora, load_configs

    if executor not in ("in-process", "processes", "celery"):
        raise typer.BadParameter(f"--executor takes in-process, processes or celery, not {executor!r}")
    use_judge(judge, judge_on)
    settings = RunSettings(
        shards=shards or 1,
        in_processes=processes or executor == "processes",
        on_celery=executor == "celery",
        # parsing, answering and grading draw bars on this terminal (Celery workers log lines only)
        progress_bar=console.is_terminal and executor != "celery",
    )
    if engine:
        override = _engine_override(engine, base_url, model, api_key_env, url, concurrency, answers_file)
        override["settings"].update(_parse_settings(engine_settings or []))
        override["answer_set"] = _set_name(answer_set)
        settings = replace(settings, engine_override=override)
    elif engine_settings or answer_set:
        raise typer.BadParameter("--setting and --answer-set name the system an --engine run adds; give --engine")
    manifests = list_corpora(corpora_dir())
    configs_known = sorted(load_configs(corpora_dir()))
    _check_names(corpus or [], sorted(manifests), "corpus")
    _check_names(config or [], configs_known, "configuration")
    _use_data_dir(corpus or [], data_dir)
    if all_corpora:
        missing = {name: data_problem(m) for name, m in sorted(manifests.items())}
        corpora = [name for name, line in missing.items() if line is None]
        for name in sorted(set(manifests) - set(corpora)):
            console.print(f"skipping {missing[name]}", style="yellow", soft_wrap=True)
    else:
        corpora = corpus or ["demo"]
        say_missing_data([manifests[name] for name in corpora])
    configs = config or configs_known
    if engine == "import":
        assert settings.engine_override is not None  # `--engine import` made one above
        _say_replaced_import(settings.engine_override, corpora, configs)
    blocked: list[dict] = []
    for name in corpora:
        refuse_early(manifests[name])
        console.print(f"materializing {name} x {', '.join(configs)}")
        with writing(warehouse_dir(), f"ragpipe run --corpus {name}"):
            outcome = orchestrator().materialize(name, configs, settings)
        for line in outcome.said:  # the judge's summary, a judge the grades had and lost, the flips
            console.print(Text(line), soft_wrap=True)
        blocked.extend(outcome.failed_money)
        if outcome.busy:
            raise WarehouseBusy(outcome.busy)
        if outcome.failed_otherwise:
            say(f"run for {name} failed: {outcome.failure}; {WHERE_DETAILS}", err=True)
            raise typer.Exit(1)
    every = read_scorecards()
    cards = [c for c in every if c["corpus"] in corpora and c["config"] in configs]
    print_scorecards(cards)
    _say_left_on_old_questions([p for p in _pairs_of(every) if p[0] in corpora and p[1] not in configs])
    say_blocked(blocked)
    if blocked:
        raise typer.Exit(1)


def _say_left_on_old_questions(pairs: list[tuple[str, str]]) -> None:
    """The corpus's other pairs, when this run read its questions again and they are graded on the old ones
    (a run of one configuration once left another graded on an edited question's old gold, silently)."""
    from ragpipe.warehouse.tables import connect

    if not pairs:
        return
    conn = connect(database_path(), read_only=True)
    try:
        for warning in stale_inputs(conn, pairs):
            say(f"warning: {warning}", err=True)
    finally:
        conn.close()


def _say_replaced_import(override: dict, corpora: list[str], configs: list[str]) -> None:
    """One line per pair whose stored answers of this imported set came from other content (the file was
    edited in place, or another file took its name): the run replaces them, and says so first."""
    from ragpipe.answering.answer_sets import stored_settings
    from ragpipe.answering.engines.import_file import ImportEngine
    from ragpipe.warehouse.sql import readonly_connection

    new = override["settings"]
    name = answer_set_name(override.get("answer_set") or ImportEngine.set_name(Path(new["path"])))
    if not database_path().exists():
        return
    with readonly_connection(database_path()) as conn:
        for corpus in corpora:
            for config in configs:
                old = stored_settings(conn, corpus, config, name)
                if old is not None and old.get("sha256") != new["sha256"]:
                    was = f"sha256 {old['sha256'][:12]}" if old.get("sha256") else "content not recorded"
                    console.print(
                        f"answer set {name} on {corpus}/{config}: replaced, {new['path']} is not what its stored "
                        f"answers came from ({was} -> {new['sha256'][:12]})",
                        style="yellow",
                        soft_wrap=True,
                    )


def say_missing_data(manifests: list) -> None:
    """Before any run starts: one line per corpus whose data folder is absent or lacks its files, and exit 1."""
    from ragpipe.corpus.adapters import data_problem

    missing = [line for line in map(data_problem, manifests) if line]
    for line in missing:
        say(line, err=True)
    if missing:
        raise typer.Exit(1)


STATS_NAMES = {
    "ungradable": "ungradable questions (nothing to grade any answer by)",
    "yes_no_only": "graded by Yes/No alone (an answer stating neither is ungradable)",
}


@corpus_app.command("new")
def corpus_new_command(
    name: str = typer.Argument(..., help="the corpus's name (lower-case letters, digits, _ and -)"),
    questions: Path = typer.Option(
        ..., "--questions", exists=True, dir_okay=False, help="the question file: YAML, JSON Lines or CSV"
    ),
    documents: Path | None = typer.Option(
        None, "--documents", exists=True, file_okay=False, help="a folder of PDFs (default: none, answers from files)"
    ),
) -> None:
    """A corpus of your question file (and PDFs, if any): systems whose answers are files are then imported
    (`ragpipe run --engine import`), compared, gated, reviewed and labelled like any corpus's."""
    from ragpipe.corpus.from_files import new_corpus

    manifest, n = new_corpus(corpora_dir(), name, questions, documents)
    say(f"corpus {name}: {n} question(s), its manifest {manifest}")
    say(
        f"next, each system's answers (JSON Lines or CSV): ragpipe run --corpus {name} --config default "
        "--engine import --answers FILE --answer-set SYSTEM"
    )


@corpus_app.command("stats")
def corpus_stats_command(
    name: str = typer.Argument(..., help="corpus name, as in corpora/<name>.yaml"),
    as_json: bool = typer.Option(False, "--json"),
    data_dir: Path | None = typer.Option(
        None, "--data-dir", help="the corpus's data folder, or the folder holding it as <corpus>/"
    ),
    refresh: bool = typer.Option(False, "--refresh", help="re-materialize the corpus stages first"),
) -> None:
    """Documents, pages, questions by kind, ungradable questions, needles kept and rejected."""
    from ragpipe.corpus.manifest import list_corpora
    from ragpipe.corpus.stats import corpus_stats
    from ragpipe.warehouse.tables import connect

    manifests = list_corpora(corpora_dir())
    _check_names([name], sorted(manifests), "corpus")
    _use_data_dir([name], data_dir)
    if refresh or not has_corpus(name):
        say_missing_data([manifests[name]])
        materialize_corpus_stages(name)
    conn = connect(database_path(), read_only=True)
    try:
        stats = corpus_stats(conn, name)
    finally:
        conn.close()
    if as_json:
        say(json.dumps(stats, indent=2))
        return
    table = Table(title=f"corpus {name}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in stats.items():
        if key != "ungradable_questions":
            table.add_row(STATS_NAMES.get(key, key), str(value))
    console.print(table)
    for question_id, reason in stats["ungradable_questions"].items():
        console.print(f"ungradable {question_id}: {reason}")


def refuse_early(manifest) -> None:
    """A corpus whose questions do not load is refused here, before its run starts, with the same message
    the run's first step would give (file, line, field), and without the run's failure logged above it.
    The corpora whose PDFs a run writes under the warehouse (the demo, a drawn sample) are checked by the
    run itself."""
    from ragpipe.corpus.adapters import data_problem, pdf_folder, pdf_folder_is_written
    from ragpipe.corpus.preflight import check_corpus

    if pdf_folder_is_written(manifest) or data_problem(manifest) is not None:
        return
    check_corpus(manifest, pdf_folder(manifest, warehouse_dir()))


def materialize_corpus_stages(name: str) -> None:
    """Ingest, questions and needles of one corpus; exit 1 if that fails."""
    with (
        console.status(Text(f"materializing the corpus stages of {name} (ingest, questions, needles)")),
        writing(warehouse_dir(), f"materialize {name}"),
    ):
        outcome = orchestrator().materialize_corpus_stages(name)
    if outcome.busy:
        raise WarehouseBusy(outcome.busy)
    if not outcome.ok:
        console.print(f"materializing {name} failed: {outcome.failure}", style="red")
        raise typer.Exit(1)


def has_corpus(name: str, folder: Path | None = None) -> bool:
    """Has the warehouse got this corpus's stages (needles are the last of them),
    ingested from `folder` when one is given?"""
    from ragpipe.warehouse.tables import connect, table_exists

    path = database_path()
    if not path.exists():
        return False
    conn = connect(path, read_only=True)
    try:
        if not (
            table_exists(conn, "needles")
            and conn.execute("SELECT count(*) FROM needles WHERE corpus = ?", [name]).fetchall()[0][0]
        ):
            return False
        if folder is None:
            return True
        files = conn.execute("SELECT count(*) FROM documents WHERE corpus = ?", [name]).fetchall()[0][0]
        return files == len(list((folder / "pdfs").glob("*.pdf")))
    finally:
        conn.close()


@app.command(rich_help_panel=PIPELINE)
def scorecard(
    corpus: str | None = typer.Option(None, help="only this corpus"),
    config: str | None = typer.Option(None, help="only this configuration"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON list, one object per pair"),
    wide: bool = typer.Option(False, "--wide", help="every column (the default fits 100 columns)"),
    by: str | None = typer.Option(
        None, "--by", help="counts per slice: question_type or kind (the `scorecard_slices` table)"
    ),
) -> None:
    """The latest scorecards from the warehouse (read-only); warns when a pair was graded again since."""
    from ragpipe.scoring.scorecard import stale_scorecards
    from ragpipe.warehouse.tables import connect

    if by is not None:
        print_slices(corpus, config, by, as_json)
        return
    cards = read_scorecards(corpus, config)
    if cards:
        conn = connect(database_path(), read_only=True)
        try:
            for warning in stale_scorecards(conn, cards) + stale_inputs(conn, _pairs_of(cards)):
                say(f"warning: {warning}", err=True)
        finally:
            conn.close()
    if as_json:
        say(json.dumps(cards, indent=2))
        return
    if not cards:
        _known_names(corpus, config)  # a typo is named as one, not taken for a pair never run
        where = f" for {corpus or 'any corpus'}/{config or 'any configuration'}" if corpus or config else ""
        console.print(f"no scorecards yet{where}: run `ragpipe run` first")
        raise typer.Exit(1)
    print_scorecards(cards, wide=wide)


def _pairs_of(cards: list[dict]) -> list[tuple[str, str]]:
    return sorted({(c["corpus"], c["config"]) for c in cards})


def stale_inputs(conn, pairs: list[tuple[str, str]]) -> list[str]:
    """A warning for each corpus whose question file changed since its questions were read, and for each pair
    graded on other questions or needles than it holds now: either way its grades are of other questions."""
    from ragpipe.corpus.manifest import ManifestError, list_corpora
    from ragpipe.corpus.question_source import edited_files
    from ragpipe.history.behind import graded_on_other_inputs

    try:
        manifests = list_corpora(corpora_dir())
    except ManifestError:
        manifests = {}
    said = [
        f"{corpus}: its questions changed since they were read ({file}); its grades are of the questions as "
        "they were: `ragpipe regrade` reads them again and grades on them"
        for corpus, file in edited_files(conn, manifests, {c for c, _ in pairs}).items()
    ]
    for corpus, config in pairs:
        n = graded_on_other_inputs(conn, corpus, config)
        if n:
            said.append(
                f"{corpus}/{config}: {n} grade(s) were made on other questions or needles than the corpus holds "
                "now (its questions were read again since): `ragpipe regrade`"
            )
    return said


def _known_names(corpus: str | None, config: str | None) -> None:
    """Refuse a corpus or configuration no manifest names, listing the known ones (as `run` does)."""
    from ragpipe.corpus.manifest import list_corpora, load_configs

    if corpus is not None:
        _check_names([corpus], sorted(list_corpora(corpora_dir())), "corpus")
    if config is not None:
        _check_names([config], sorted(load_configs(corpora_dir())), "configuration")


def print_slices(corpus: str | None, config: str | None, by: str, as_json: bool) -> None:
    """The stored slices of the latest scorecards, one table per pair."""
    from ragpipe.scoring.slices import DIMENSIONS
    from ragpipe.warehouse.nulls import records
    from ragpipe.warehouse.sql import readonly_connection
    from ragpipe.warehouse.tables import table_exists

    if by not in DIMENSIONS:
        console.print(f"--by takes {' or '.join(DIMENSIONS)}, not {by!r}", style="red")
        raise typer.Exit(2)
    with readonly_connection(database_path()) as conn:
        if not table_exists(conn, "scorecard_slices"):
            console.print("no slices yet: run `ragpipe run` (or `ragpipe regrade`) first", style="red")
            raise typer.Exit(1)
        frame = conn.execute(
            "SELECT * FROM scorecard_slices WHERE slice_by = ? AND (? IS NULL OR corpus = ?) "
            "AND (? IS NULL OR config = ?) ORDER BY corpus, config, answer_set, slice",
            [by, corpus, corpus, config, config],
        ).df()
    rows = records(frame)
    if as_json:
        say(json.dumps(rows, indent=2, default=str))
        return
    if not rows:
        console.print("no scorecards for that corpus and configuration: run `ragpipe run` first", style="red")
        raise typer.Exit(1)
    for (c, k), group in frame.groupby(["corpus", "config"], sort=True):
        table = Table(title=f"{c}/{k} by {by}")
        for column in ("answers", by, "c/p/w/u", "correct % [95%]", "declined", "wrong money"):
            table.add_column(column, overflow="fold")
        for r in records(group):
            pct = "-" if r["overall_pct"] is None else f"{r['overall_pct']} [{r['low_pct']}, {r['high_pct']}]"
            cpwu = f"{r['correct']}/{r['partial']}/{r['wrong']}/{r['ungradable']}"
            table.add_row(r["answer_set"], r["slice"], cpwu, pct, str(r["declined"]), str(r["wrong_money"]))
        console.print(table)


def financebench_pages(data: Path):
    """The pages of FinanceBench ingested from `data` (ingested first when the warehouse has none of them):
    what `agreement` and `trust fit` grade FinanceBench's labelled files over."""
    from ragpipe.corpus.manifest import list_corpora
    from ragpipe.warehouse.tables import connect, read_partition

    os.environ["RAGPIPE_FINANCEBENCH_DIR"] = str(data.resolve())
    if not has_corpus("financebench", data.resolve()):
        say_missing_data([list_corpora(corpora_dir())["financebench"]])
        materialize_corpus_stages("financebench")
    conn = connect(database_path(), read_only=True)
    try:
        return read_partition(conn, "pages", {"corpus": "financebench"})
    finally:
        conn.close()
