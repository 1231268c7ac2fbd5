"""How far the grader agrees with people: confusion, accuracy, Cohen's kappa,
refusal precision/recall, and the costliest error, false "correct".

Verdicts map to the human classes: declined -> Refusal, correct -> Correct
Answer, anything else (partial, wrong, ungradable) -> Incorrect Answer: the
grader passes only what it can verify.
"""

from __future__ import annotations

from collections import Counter

import pandas as pd

from ragpipe.answering.labels import HUMAN_CLASSES
from ragpipe.grading.grade import Verdict

CORRECT, INCORRECT, REFUSAL = HUMAN_CLASSES


def grader_class(verdict: str, declined: bool) -> str:
    if declined:
        return REFUSAL
    return CORRECT if verdict == Verdict.CORRECT else INCORRECT


def confusion_matrix(human, grader) -> dict[str, dict[str, int]]:
    """counts[h][g] = how many items people put in class h and the grader in class g, over HUMAN_CLASSES."""
    counts = {h: dict.fromkeys(HUMAN_CLASSES, 0) for h in HUMAN_CLASSES}
    for h, g in zip(human, grader):
        counts[h][g] += 1
    return counts


def cohen_kappa(a: list[str], b: list[str], classes=HUMAN_CLASSES) -> float:
    """Agreement beyond chance between two raters over the same items:
    kappa = (p_o - p_e) / (1 - p_e), p_o the share of items they agree on, p_e = sum over classes c
    of (share a puts in c) x (share b puts in c), the agreement two independent raters would reach."""
    n = len(a)
    if n == 0:
        return 0.0
    observed = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    expected = sum(ca[c] * cb[c] for c in classes) / (n * n)
    return 1.0 if expected == 1 else (observed - expected) / (1 - expected)


def _prf(pairs: list[tuple[str, str]], cls: str) -> dict:
    """Precision tp / (tp + fp), recall tp / (tp + fn) and F1 2pr / (p + r) of the grader on one class,
    people's labels as the truth ((human, grader) pairs)."""
    tp = sum(h == cls and g == cls for h, g in pairs)
    fp = sum(h != cls and g == cls for h, g in pairs)
    fn = sum(h == cls and g != cls for h, g in pairs)
    p = tp / (tp + fp) if tp + fp else None  # the grader said none: no precision to speak of
    r = tp / (tp + fn) if tp + fn else None  # people said none: recall and F1 are n/a, not 0
    f1 = None if r is None else 2 * p * r / (p + r) if p and p + r else 0.0
    return {"precision": _rounded(p), "recall": _rounded(r), "f1": _rounded(f1)}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def agreement(frame: pd.DataFrame) -> dict:
    """Figures for rows with `human` and `grader` class columns (and `question_type`). Counted over plain
    lists: the report asks for some thirty subsets, and each comparison of a pandas string column costs
    more than counting a thousand labels."""
    human, grader = list(frame["human"]), list(frame["grader"])
    pairs = list(zip(human, grader))
    types = list(frame["question_type"]) if "question_type" in frame else [None] * len(pairs)
    false_correct = [g == CORRECT and h != CORRECT for h, g in pairs]
    n = len(pairs)
    return {
        "n": n,
        "accuracy": round(sum(h == g for h, g in pairs) / n, 4) if n else 0.0,
        "kappa": round(cohen_kappa(human, grader), 4),
        "confusion": confusion_matrix(human, grader),
        "refusal": _prf(pairs, REFUSAL),
        "correct": _prf(pairs, CORRECT),
        "false_correct": sum(false_correct),
        "false_correct_numeric": sum(f and t == "metrics-generated" for f, t in zip(false_correct, types)),
        # correct against not (incorrect and refusal as one): what a firm verdict promises nobody need check
        "disagree_correct": (off := sum((h == CORRECT) != (g == CORRECT) for h, g in pairs)),
        "disagree_correct_rate": round(off / n, 4) if n else 0.0,
        # how much the grader's accuracy over- (+) or under-states (-) people's, on these answers
        "bias": round(grader.count(CORRECT) / n - human.count(CORRECT) / n, 4) if n else 0.0,
    }


def on_the_labels_scale(frame: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """The grader's classes on the scale the people used. People who could only say correct or
    incorrect (no answer of the set is labelled a refusal) put every decline under incorrect: there
    the grader's declines count as incorrect too, or each would be a disagreement no grader could
    avoid. Decided once for the whole labelled set, so its breakdowns share one scale."""
    if (frame["human"] == REFUSAL).any() or frame.empty:
        return frame, {"classes": list(HUMAN_CLASSES), "declines": "refusal"}
    folded = frame.assign(grader=frame["grader"].replace(REFUSAL, INCORRECT))
    declined = int((frame["grader"] == REFUSAL).sum())
    return folded, {"classes": [CORRECT, INCORRECT], "declines": "incorrect", "declines_folded": declined}


FIRMNESS = {True: "firm", False: "tentative"}


def by_rule(frame: pd.DataFrame) -> dict:
    """Each deciding rule (a grade's `rule`): how many answers it decided, the classes people and the grader
    gave them, and how many people disagree with. The needle rules' half of the collision audit: a rule that
    passes answers people reject (false correct) or fails answers they accept shows here, set by set."""
    out = {}
    rules = frame["rule"].fillna("none").astype(str)
    if "matched" in frame:  # a lenient reading decided with the rule: "needles.mined.all [last_place]"
        rules = [r if (k := _readings(m)) == "strict" else f"{r} [{k}]" for r, m in zip(rules, frame["matched"])]
    for rule, g in frame.groupby(pd.Series(list(rules), index=frame.index), sort=True):
        human, grader = list(g["human"]), list(g["grader"])
        out[rule] = {
            "n": len(g),
            "disagree": sum(h != x for h, x in zip(human, grader)),
            "people": dict(sorted(Counter(human).items())),
            "grader": dict(sorted(Counter(grader).items())),
        }
    return out


def agreement_report(frame: pd.DataFrame) -> dict:
    """Overall figures, then the same per question type, per labelled file, per firmness of the
    grader's verdict (firm: exact evidence; tentative: words or their absence) and per firmness within
    each file, on the labels' scale; and what each deciding rule decided (`by_rule`)."""
    frame, scale = on_the_labels_scale(frame)
    report = agreement(frame)
    report["scale"] = scale
    report["by_question_type"] = {t: agreement(g) for t, g in frame.groupby("question_type", sort=True)}
    report["by_file"] = {f: agreement(g) for f, g in frame.groupby("file", sort=True)}
    if "firm" in frame:  # grades from before firmness was recorded have none
        report["by_firmness"] = {FIRMNESS[bool(k)]: agreement(g) for k, g in frame.groupby("firm", sort=True)}
        # firmness within each file: "firm means trustworthy" must hold for every system, not on average
        report["by_file_firmness"] = {
            f: {FIRMNESS[bool(k)]: agreement(h) for k, h in g.groupby("firm", sort=True)}
            for f, g in frame.groupby("file", sort=True)
        }
    if "rule" in frame:
        report["by_rule"] = by_rule(frame)
    if "matched" in frame:
        report["by_reading"] = by_reading(frame)
    return report


def by_reading(frame: pd.DataFrame) -> dict:
    """The lenient reading each grade's needles needed (grading/checks/needles.py: a computed figure's
    last-place slack, a ratio read as a percent, an authored form the question holds), "strict" where
    none: how many answers each decided, and how people and the grader classed them."""
    readings = [_readings(m) for m in frame["matched"]]
    out = {}
    for reading in sorted(set(readings)):
        g = frame[[r == reading for r in readings]]
        human, grader = list(g["human"]), list(g["grader"])
        out[reading] = {
            "n": len(g),
            "firm": int(g["firm"].astype(bool).sum()) if "firm" in g else None,
            "disagree": sum(h != x for h, x in zip(human, grader)),
            "people": dict(sorted(Counter(human).items())),
            "grader": dict(sorted(Counter(grader).items())),
        }
    return out


def _readings(matched) -> str:
    import json

    spans = json.loads(matched) if isinstance(matched, str) and matched else []
    found = sorted({s["reading"] for s in spans if isinstance(s, dict) and s.get("reading")})
    return "+".join(found) or "strict"


def labelled_frame(
    grades: pd.DataFrame, answers: pd.DataFrame, questions: pd.DataFrame, people: pd.Series | None = None
) -> pd.DataFrame:
    """One row per human-labelled answer: the person's class, the grader's, question type, file (the
    answer set). People's classes come from `people` (answer_id -> class: labels/store.py) when given,
    else from the answers' own `label` column (imported labelled sets)."""
    if people is None:
        labelled = answers.loc[answers["label"].notna(), ["answer_id", "label", "engine_settings"]]
    else:
        given = pd.DataFrame({"answer_id": people.index.astype(str), "label": people.to_numpy(dtype=object)})
        labelled = given.merge(answers[["answer_id", "engine_settings"]], on="answer_id")
    frame = grades.merge(labelled, on="answer_id").merge(
        questions[["question_id", "question_type"]], on="question_id", how="left"
    )
    frame["human"] = frame["label"]
    frame["grader"] = [grader_class(v, bool(d)) for v, d in zip(frame["verdict"], frame["declined"])]
    frame["file"] = frame["answer_set"].str.removeprefix("labeled:")
    return frame.sort_values(["answer_set", "question_id"]).reset_index(drop=True)


AGREEMENT_COLUMNS = [
    "corpus",
    "config",
    "grader_version",
    "scope",
    "name",
    "n",
    "accuracy",
    "kappa",
    "refusal_precision",
    "refusal_recall",
    "refusal_f1",
    "false_correct",
    "false_correct_numeric",
    "bias",
    "confusion",
]


def agreement_rows(report: dict, corpus: str, config: str, grader_version: str) -> pd.DataFrame:
    """The report as table rows: overall, then per question type and per file."""
    import json

    def row(scope: str, name: str, a: dict) -> list:
        return [
            corpus,
            config,
            grader_version,
            scope,
            name,
            a["n"],
            a["accuracy"],
            a["kappa"],
            a["refusal"]["precision"],
            a["refusal"]["recall"],
            a["refusal"]["f1"],
            a["false_correct"],
            a["false_correct_numeric"],
            a["bias"],
            json.dumps(a["confusion"], sort_keys=True),
        ]

    rows = [row("overall", "all", report)]
    rows += [row("question_type", k, v) for k, v in report["by_question_type"].items()]
    rows += [row("file", k, v) for k, v in report["by_file"].items()]
    rows += [row("firmness", k, v) for k, v in report.get("by_firmness", {}).items()]
    frame = pd.DataFrame(rows, columns=AGREEMENT_COLUMNS)
    undefined_at_times = ["refusal_precision", "refusal_recall", "refusal_f1"]  # n/a is NULL, the column stays DOUBLE
    frame[undefined_at_times] = frame[undefined_at_times].astype("float64")
    return frame


def confusion_markdown(confusion: dict) -> str:
    short = {CORRECT: "Correct", INCORRECT: "Incorrect", REFUSAL: "Refusal"}
    lines = ["| person \\ grader | " + " | ".join(short[c] for c in HUMAN_CLASSES) + " |", "|---|---|---|---|"]
    for h in HUMAN_CLASSES:
        lines.append(f"| {short[h]} | " + " | ".join(str(confusion[h][g]) for g in HUMAN_CLASSES) + " |")
    return "\n".join(lines)
