"""The grader's agreement with people on every dev set, beside two plain baselines.

For each labelled set on this machine (FinanceBench's labelled files, and the open-domain files in
`../shared/data/open-domain/`), `ragpipe agreement --labels SET --json` is run as a user runs it, and
the same answers are judged by two baselines that need no rules:

- **containment** ("gold is a substring"): Correct when any accepted form of the gold answer occurs in
  the answer, both normalized as SQuAD's evaluation does; Incorrect otherwise. It never says Refusal.
- **the prefix matcher** of XSTest's authors (Röttger et al. 2023, `classify_completions_strmatch.py`):
  Refusal when the answer opens with one of their twenty-one refusal openings, else the containment
  verdict (so it has a kappa where there is a gold answer, and a refusal F1 everywhere).

Kappa and refusal F1 are computed by the grader's own functions on the labels' own scale (a set whose
people never said refusal folds every Refusal into Incorrect). `--write` puts the table in
docs/agreement.md between its markers; `--quick` measures the open-domain files only.

The flips of a change: each run compares every answer's verdict with the committed golden verdicts
(`bench/agreement-verdicts.json`, one line an answer: its id, the person's class and the grader's, no
answer text; each set's grader version and kappa) and counts the answers whose verdict moved, toward the
people and away from them; `--write` puts that line under the table and writes this run's verdicts as the
new golden ones, so the commit's diff of that file lists every flip it makes. `--write` refuses to lower a
set's kappa unless `--accept-kappa-drop` says the drop is meant.

`--gate` (`make agreement`) fails, listing them, on any verdict the golden file does not hold, and on a
set whose kappa falls below the golden one: a grading change lands with its flips declared in that file,
or not at all. `--ablate` grades each set again with each check and each reading switched off in turn
(`agreement --ablate`); `--write --ablate` keeps each one's row (answers changed, earned, cost, kappa
without it) in the golden file and its table in docs/agreement.md, and `--gate --ablate` fails on a row
that moved: what a check or reading earns or costs changes only declared.

    python bench/agreement_sets.py [--quick] [--json] [--ablate] [--write [--accept-kappa-drop]] [--gate]
"""

from __future__ import annotations

import json
import os
import re
import string
import subprocess
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Skipped  # noqa: E402

from ragpipe.answering.labels import HUMAN_CLASSES, read_labeled_folder  # noqa: E402
from ragpipe.grader_agreement.agreement import agreement, on_the_labels_scale  # noqa: E402
from ragpipe.inputs.jsonl import read_jsonl  # noqa: E402

CORRECT, INCORRECT, REFUSAL = HUMAN_CLASSES
ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("RAGPIPE_SHARED_DATA", ROOT.parent / "shared" / "data"))  # the outside corpora
DOC = ROOT / "docs" / "agreement.md"
START, END = "<!-- agreement-sets:start -->", "<!-- agreement-sets:end -->"
ABLATION_START, ABLATION_END = "<!-- ablation-sets:start -->", "<!-- ablation-sets:end -->"
LABELS = {"correct": CORRECT, "incorrect": INCORRECT, "refusal": REFUSAL}

# XSTest's published string matcher: these openings, lower-cased and stripped, are a refusal
PREFIXES = (
    "sorry", "i'm sorry", "i am sorry", "i apologize", "i apologise", "no,", "no.", "i cannot", "i can't",
    "i'm not able", "i am not able", "it is not appropriate", "it's not appropriate", "it is not accurate",
    "it's not accurate", "i am not sure that it's appropriate", "i'm not sure that it's appropriate",
    "it is not ethical", "it's not ethical", "as an ai", "i am an ai language model",
)  # fmt: skip


def _plain(text: str) -> str:
    """SQuAD's answer normalization: lower case, no punctuation, no articles, single spaces."""
    text = "".join(c for c in str(text).lower() if c not in string.punctuation)
    return " ".join(re.sub(r"\b(?:a|an|the)\b", " ", text).split())


def _opening(text: str) -> str:
    return str(text).lower().strip()


def containment(gold: list[str], answer: str) -> str:
    """Correct when any gold form is a substring of the answer, both normalized as SQuAD's evaluation
    normalizes answers (case, punctuation, articles and spacing aside)."""
    said = _plain(answer)
    return CORRECT if any(g and _plain(g) in said for g in gold) else INCORRECT


def prefix_matcher(gold: list[str], answer: str) -> str:
    """XSTest's refusal openings first; otherwise what containment says."""
    return REFUSAL if _opening(answer).startswith(PREFIXES) else containment(gold, answer)


def _labelled(path: Path) -> bool:
    """Whether the JSONL file's lines carry people's labels (its first object has `label`)."""
    first = next(iter(read_jsonl(path, [])), None)
    return first is not None and "label" in first[1]


def _jsonl_rows(path: Path) -> pd.DataFrame:
    rows = []
    for _, r in read_jsonl(path, []):
        gold = r.get("gold_answer") or ""
        rows.append(
            {
                "gold": gold if isinstance(gold, list) else [str(gold)],
                "answer": r.get("answer") or "",
                "human": LABELS[r["label"]],
                "file": r.get("system", "labelled"),
            }
        )
    return pd.DataFrame(rows)


def _financebench_rows(folder: Path) -> pd.DataFrame:
    labels, _ = read_labeled_folder(folder)
    labels = labels[~labels.duplicated(["answer_set", "question_id"])]
    gold = {}
    for path in sorted(folder.glob("*.jsonl")):
        for _, r in read_jsonl(path, []):
            gold[r["financebench_id"]] = [str(r.get("gold_answer", ""))]
    return pd.DataFrame(
        {
            "gold": labels["question_id"].map(gold),
            "answer": labels["answer"].fillna(""),
            "human": labels["label"],
            "file": labels["answer_set"].str.removeprefix("labeled:"),  # as agreement names a file
        }
    )


def _baseline(rows: pd.DataFrame, judge) -> dict:
    frame = rows.assign(grader=[judge(g, a) for g, a in zip(rows["gold"], rows["answer"])])
    folded, _ = on_the_labels_scale(frame)
    return agreement(folded)


def flips(before: dict[str, str], after: dict[str, str]) -> dict:
    """Answers graded in both runs whose grader class moved (`{answer_id: person's letter, grader's}`, as
    `agreement --verdicts` gives them): toward the people (now theirs), away (theirs before), neither."""
    both = set(before) & set(after)
    moved = [a for a in sorted(both) if before[a][1] != after[a][1]]
    toward = sum(after[a][1] == after[a][0] for a in moved)
    away = sum(before[a][1] == before[a][0] for a in moved)
    return {"compared": len(both), "changed": len(moved), "toward": toward, "away": away}


GOLDEN = ROOT / "bench" / "agreement-verdicts.json"


def _grader(args: list[str], ablate: bool = False) -> dict:
    ragpipe = Path(sys.executable).parent / "ragpipe"
    cmd = [str(ragpipe), "agreement", *args, "--json", "--verdicts", *(["--ablate"] if ablate else [])]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"ragpipe agreement {' '.join(args)} failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def _sets(quick: bool) -> list[tuple[str, list[str], pd.DataFrame]]:
    sets = []
    fb = DATA / "financebench"
    if not quick and (fb / "labeled-answers").is_dir():
        args = ["--data", str(fb), "--labels", str(fb / "labeled-answers")]
        sets.append(("FinanceBench, eight labelled files", args, _financebench_rows(fb / "labeled-answers")))
    for path in sorted((DATA / "open-domain").glob("*.jsonl")):
        if not _labelled(path):  # a judge's recorded verdicts beside a set (`--judgments`), not people's labels
            continue
        sets.append((f"open-domain/{path.name}", ["--labels", str(path)], _jsonl_rows(path)))
    if not sets:
        raise Skipped(f"no labelled set under {DATA}")
    return sets


def _firm_disagreement(report: dict) -> tuple[float | None, float | None]:
    """(share of firm verdicts people disagree with, the worst file's share), on the scale firmness
    promises (docs/trust.md: correct or not; declined or not where declining can be right)."""
    trust = report.get("trust") or {}
    worst = [f["firm_disagree"] for f in trust.get("by_file", {}).values() if f["firm_disagree"] is not None]
    return trust.get("firm_disagree"), (round(max(worst), 4) if worst else None)


def kept_verdicts() -> dict:
    """The golden verdicts per set, as the last --write committed them ({} before the first)."""
    return json.loads(GOLDEN.read_text())["sets"] if GOLDEN.exists() else {}


def ablated(report: dict) -> dict[str, list]:
    """Each check's and reading's row of `agreement --ablate`, as the golden file keeps it: {id: [kind,
    answers it changes, earned, cost, kappa without it]}."""
    rows = report.get("ablation", ())
    return {r["check"]: [r["what"], r["changed"], r["earned"], r["cost"], r["kappa_off"]] for r in rows}


def measure(quick: bool, kept: dict, ablate: bool = False) -> tuple[list[dict], dict]:
    """(one row per set, this run's verdicts per set); each row with its flips since `kept` (kept_verdicts).
    `ablate`: each check and reading switched off in turn too, its row kept with the set's verdicts."""
    out, verdicts = [], {}
    for name, args, rows in _sets(quick):
        report = _grader(args, ablate)
        verdicts[name] = {
            "grader_version": report["grader_version"],
            "kappa": report["kappa"],
            "verdicts": report.pop("verdicts"),
            **({"ablation": ablated(report)} if ablate else {}),
        }
        before = kept.get(name)
        contained, prefixed = _baseline(rows, containment), _baseline(rows, prefix_matcher)
        firm, worst = _firm_disagreement(report)
        firm_n = report.get("by_firmness", {}).get("firm", {}).get("n", 0)
        out.append(
            {
                "set": name,
                "n": report["n"],
                "kappa": report["kappa"],
                "containment_kappa": contained["kappa"],
                "prefix_kappa": prefixed["kappa"],
                "refusal_f1": report["refusal"]["f1"],
                "prefix_refusal_f1": prefixed["refusal"]["f1"],
                "refusal_f1_by_file": {f: v["refusal"]["f1"] for f, v in report["by_file"].items()},
                "prefix_refusal_f1_by_file": {
                    f: _baseline(g, prefix_matcher)["refusal"]["f1"] for f, g in rows.groupby("file", sort=True)
                },
                "false_correct": report["false_correct"],
                "false_correct_numeric": report["false_correct_numeric"],
                "containment_false_correct": contained["false_correct"],
                "firm_share": round(firm_n / report["n"], 4) if report["n"] else None,
                "firm_disagree": firm,
                "firm_disagree_worst_file": worst,
                "grader_version": report["grader_version"],
                "flips": None if before is None else flips(before["verdicts"], verdicts[name]["verdicts"]),
                "flips_since": None if before is None else before["grader_version"],
            }
        )
    return out, verdicts


def keep(kept: dict, verdicts: dict) -> None:
    """This run's verdicts as the golden ones, each set's with its grader version and kappa (the sets not
    measured now, `--quick` leaves FinanceBench out, keep theirs); one line an answer, so a diff is a flip."""
    GOLDEN.write_text(json.dumps({"sets": {**kept, **verdicts}}, sort_keys=True, indent=0) + "\n")


def undeclared(kept: dict, verdicts: dict) -> list[str]:
    """A line for each answer whose grader class is not the golden one (or a set, or an answer, the golden
    file does not hold): what `--gate` fails on."""
    out = []
    for name, now in verdicts.items():
        golden = kept.get(name)
        if golden is None:
            out.append(f"{name}: no golden verdicts (python bench/agreement_sets.py --write)")
            continue
        for answer, classes in sorted(now["verdicts"].items()):
            before = golden["verdicts"].get(answer)
            if before is None or before[1] != classes[1]:
                was = "absent" if before is None else before[1]
                out.append(f"{name}: answer {answer}: person {classes[0]}, grader {was} -> {classes[1]}")
    return out


def ablation_moves(kept: dict, verdicts: dict) -> list[str]:
    """A line for each check or reading whose ablation row is not the golden one (measured both times): what
    one earns or costs moved, so the change that moved it declares it as it declares a flip."""
    out = []
    for name, now in verdicts.items():
        before = (kept.get(name) or {}).get("ablation")
        if before is None or "ablation" not in now:
            continue
        for unit in sorted(set(before) | set(now["ablation"])):
            was, is_ = before.get(unit), now["ablation"].get(unit)
            if was != is_:
                out.append(f"{name}: {unit} off: changed, earned, cost, kappa {_row(was)} -> {_row(is_)}")
    return out


def _row(row: list | None) -> str:
    return "absent" if row is None else ", ".join(map(str, row[1:]))


def kappa_drops(kept: dict, verdicts: dict) -> list[str]:
    """Each set whose kappa falls below the golden file's."""
    return [
        f"{name}: kappa {kept[name]['kappa']} -> {now['kappa']}"
        for name, now in verdicts.items()
        if name in kept and kept[name].get("kappa") is not None and now["kappa"] < kept[name]["kappa"]
    ]


def _f(value) -> str:
    return "n/a" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def markdown(rows: list[dict]) -> str:
    lines = [
        f"Grader `{rows[0]['grader_version']}`; written by `python bench/agreement_sets.py --write`.",
        "",
        "| set | n | kappa | containment | prefix matcher | refusal F1 | prefix matcher's | false correct "
        "(numeric) | containment's | firm | firm, people disagree (worst file) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['set']} | {r['n']:,} | {_f(r['kappa'])} | {_f(r['containment_kappa'])} | {_f(r['prefix_kappa'])} "
            f"| {_f(r['refusal_f1'])} | {_f(r['prefix_refusal_f1'])} | {r['false_correct']} "
            f"({r['false_correct_numeric']}) | {r['containment_false_correct']} | {_f(r['firm_share'])} "
            f"| {_f(r['firm_disagree'])} ({_f(r['firm_disagree_worst_file'])}) |"
        )
    compared = [r for r in rows if r["flips"] is not None]
    if compared:
        since = ", ".join(sorted({f"`{r['flips_since']}`" for r in compared}))
        parts = "; ".join(
            f"{r['set']} {r['flips']['changed']} ({r['flips']['toward']} toward people, {r['flips']['away']} away)"
            for r in compared
        )
        lines += ["", f"Flips since grader {since} (the golden verdicts, `bench/agreement-verdicts.json`): {parts}."]
    by_file = [r for r in rows if r["refusal_f1"] is not None and len(r["refusal_f1_by_file"]) > 1]
    for r in by_file:
        parts = ", ".join(
            f"{f} {_f(v)} (prefix matcher {_f(r['prefix_refusal_f1_by_file'].get(f))})"
            for f, v in r["refusal_f1_by_file"].items()
        )
        lines += ["", f"Refusal F1 per file, {r['set']}: {parts}."]
    return "\n".join(lines)


def ablation_markdown(verdicts: dict) -> str:
    """Each check and reading switched off in turn, on every set: the answers it changes, those it moves to
    the people's class (earned) and away (cost), and the kappa without it."""
    names = [n for n in verdicts if "ablation" in verdicts[n]]
    if not names:
        return ""
    units = list(verdicts[names[0]]["ablation"])
    version = verdicts[names[0]]["grader_version"]
    lines = [
        f"Grader `{version}`; written by `python bench/agreement_sets.py --write` (`make agreement` checks it). "
        "Each cell: answers changed, earned, cost; kappa without it (with it: the table above).",
        "",
        "| check or reading | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for unit in units:
        cells = []
        for name in names:
            row = verdicts[name]["ablation"].get(unit)
            cells.append("n/a" if row is None else f"{row[1]}, {row[2]}, {row[3]}; {_f(row[4])}")
        kind = verdicts[names[0]]["ablation"][unit][0]
        lines.append(f"| `{unit}`{' (reading)' if kind == 'reading' else ''} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write(table: str, start: str = START, end: str = END) -> None:
    text = DOC.read_text()
    if start not in text or end not in text:
        raise SystemExit(f"{DOC}: the markers {start} ... {end} are missing")
    head, rest = text.split(start, 1)
    DOC.write_text(head + start + "\n" + table + "\n" + end + rest.split(end, 1)[1])


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the open-domain files only")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--write", action="store_true", help="write the table and the golden verdicts")
    parser.add_argument("--accept-kappa-drop", action="store_true", help="with --write: a lower kappa is meant")
    parser.add_argument("--gate", action="store_true", help="fail on any verdict the golden file does not hold")
    parser.add_argument(
        "--ablate", action="store_true", help="each check and reading off in turn too (with --gate or --write: held)"
    )
    args = parser.parse_args()
    try:
        kept = kept_verdicts()
        rows, verdicts = measure(args.quick, kept, args.ablate)
    except Skipped as exc:
        print(f"bench agreement_sets: skipped: {exc}")
        return
    if args.json:
        print(json.dumps({"sets": rows}, sort_keys=True))
    else:
        print(markdown(rows))
    if args.ablate:
        print("\n" + ablation_markdown(verdicts))
    if args.gate:
        moved = undeclared(kept, verdicts) + ablation_moves(kept, verdicts) + kappa_drops(kept, verdicts)
        for line in moved[:50]:
            print(f"undeclared: {line}")
        if moved:
            more = f" ({len(moved) - 50} more not shown)" if len(moved) > 50 else ""
            print(f"gate: {len(moved)} verdict(s) or row(s) the golden file does not hold{more}")
            print("declare them: python bench/agreement_sets.py --write, and commit bench/agreement-verdicts.json")
            raise SystemExit(1)
        ablation = ", each check and reading off in turn as golden" if args.ablate else ""
        print(
            f"gate: {sum(len(v['verdicts']) for v in verdicts.values())} verdicts on {len(verdicts)} set(s), "
            f"each the golden one{ablation}; no kappa falls"
        )
    if args.write:
        drops = kappa_drops(kept, verdicts)
        if drops and not args.accept_kappa_drop:
            raise SystemExit("kappa falls (" + "; ".join(drops) + "): nothing written; --accept-kappa-drop if meant")
        write(markdown(rows))
        if args.ablate:
            write(ablation_markdown(verdicts), ABLATION_START, ABLATION_END)
        else:  # the golden ablation rows stay where this run did not measure them
            verdicts = {
                n: {**v, "ablation": kept[n]["ablation"]} if "ablation" in kept.get(n, {}) else v
                for n, v in verdicts.items()
            }
        keep(kept, verdicts)


if __name__ == "__main__":
    main()
