"""`ragpipe trust`: fit the confidence model on people's labels and measure how well it transfers."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import typer

from ragpipe.cli.app import GRADER, app, console, say
from ragpipe.cli.run import financebench_pages
from ragpipe.warehouse.settings import corpora_dir

trust_app = typer.Typer(help="How sure verdicts are: the confidence model and the firm bound.", no_args_is_help=True)
app.add_typer(trust_app, name="trust", rich_help_panel=GRADER)

# the shipped model's sets: (name, path under the shared data folder); FinanceBench is a folder of files
SETS = (
    ("financebench-dev", "financebench/labeled-answers"),
    ("evouna-tq", "open-domain/evouna-tq.jsonl"),
    ("xstest-dev", "open-domain/xstest-dev.jsonl"),
)


def evidence_frame(shared: Path, rules):
    """Every shipped set's labelled verdicts as training rows, and each set's data card."""
    import pandas as pd

    from ragpipe.grader_agreement.labelled_agreement import financebench_labelled
    from ragpipe.grader_agreement.labelled_jsonl import labelled_set_graded, read_labelled_jsonl
    from ragpipe.grader_agreement.trust_sets import evidence_rows
    from ragpipe.trust.confidence import LabelledSet

    frames, cards = [], []
    for name, where in SETS:
        path = shared / where
        if path.is_dir():
            from ragpipe.corpus.manifest import list_corpora

            manifest = list_corpora(corpora_dir())["financebench"]
            graded = financebench_labelled(financebench_pages(path.parent), manifest, path, rules)
        else:
            graded = labelled_set_graded(read_labelled_jsonl(path), rules)
        rows = evidence_rows(*graded, name)
        frames.append(rows)
        cards.append(
            LabelledSet(name=name, source=where, answers=len(rows), people_disagree=round(1 - rows["agree"].mean(), 4))
        )
    return pd.concat(frames, ignore_index=True), cards


@trust_app.command("fit")
def fit(
    shared: Path = typer.Option(
        Path("../shared/data"), "--shared", exists=True, file_okay=False, help="the shared data folder"
    ),
    write: bool = typer.Option(False, "--write", help="write the model to grading/confidence.json"),
    out: Path | None = typer.Option(None, "--out", dir_okay=False, help="write the model to this file instead"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Fit the confidence model on the labelled sets, and measure it leave-one-set-out."""
    from ragpipe.grading.confidence import MODEL_FILE
    from ragpipe.grading.rules import load_rules
    from ragpipe.trust.fit import fit_confidence, leave_one_set_out
    from ragpipe.warehouse.settings import rules_path

    rules = load_rules(rules_path())
    frame, cards = evidence_frame(shared, rules)
    model = fit_confidence(frame, cards, str(date.today()))
    transfer = leave_one_set_out(frame, rules.trust.alpha, rules.trust.delta)
    bound = model.bound(rules.trust.alpha, rules.trust.delta)
    report = {"sets": [c.model_dump() for c in cards], "bound": bound.model_dump(), "leave_one_set_out": transfer}
    target = out or (MODEL_FILE if write else None)
    if target is not None:
        target.write_text(model.model_dump_json(indent=1) + "\n")
        report["written"] = str(target)
    if as_json:
        say(json.dumps(report, indent=2))
        return
    for c in cards:
        console.print(
            f"{c.name}: {c.answers} labelled answers, people disagree with {c.people_disagree:.1%} of verdicts"
        )
    console.print(
        f"firm threshold {bound.threshold:.4f} (alpha {bound.alpha}, delta {bound.delta}, {bound.labels} labels): "
        f"firm {bound.firm_share:.1%} out of fold"
    )
    for name, r in bound.per_set.items():
        off = "n/a" if r["firm_disagree"] is None else f"{r['firm_disagree']:.2%}"
        own = "none holds" if r["own_threshold"] > 1 else f"{r['own_threshold']:.4f}"
        console.print(
            f"  {name}: firm {r['firm_share']:.1%}, people disagree with {off} of them; its own threshold: {own}"
        )
    for held, r in transfer.items():
        off = "n/a" if r["firm_disagree"] is None else f"{r['firm_disagree']:.2%}"
        console.print(
            f"held out {held}: ECE {r['ece']:.4f}, AURC {r['aurc']:.4f}; firm {r['firm_share']:.1%} at the others' "
            f"threshold {r['threshold']:.4f}, people disagree with {off} of them"
        )
    if target is not None:
        console.print(f"wrote {target}")
