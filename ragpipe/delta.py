"""Before/after: which verdicts a grader change flipped, in which direction, and by which rule.

A delta compares two sets of verdicts on the same answers. Every answer
whose verdict, declined flag or failure label changed is listed with the old
and new value and the rule that decided each; the summary counts flips by
direction per corpus; `monotone` is false when any verdict moved from
correct to something worse.
"""

from __future__ import annotations

import pandas as pd

KEY = ["corpus", "config", "answer_set", "question_id", "answer_id"]
RANK = {"correct": 3, "partial": 2, "wrong": 1, "ungradable": 0}
DELTA_COLUMNS = KEY + [
    "old_verdict", "new_verdict", "old_declined", "new_declined", "old_failure", "new_failure", "old_rule", "new_rule",
]


def _same(a, b) -> bool:
    return (pd.isna(a) and pd.isna(b)) or a == b


def grade_delta(old: pd.DataFrame, new: pd.DataFrame) -> dict:
    """Compare verdict tables (grades or history rows) on the answers both hold."""
    cols = ["verdict", "declined", "failure", "rule"]
    merged = old[KEY + cols].merge(new[KEY + cols], on=KEY, suffixes=("_old", "_new"))
    changed = []
    for r in merged.sort_values(KEY).to_dict("records"):
        if all(_same(r[f"{c}_old"], r[f"{c}_new"]) for c in ("verdict", "declined", "failure")):
            continue
        changed.append({
            **{k: r[k] for k in KEY},
            "old_verdict": r["verdict_old"], "new_verdict": r["verdict_new"],
            "old_declined": bool(r["declined_old"]), "new_declined": bool(r["declined_new"]),
            "old_failure": None if pd.isna(r["failure_old"]) else r["failure_old"],
            "new_failure": None if pd.isna(r["failure_new"]) else r["failure_new"],
            "old_rule": r["rule_old"], "new_rule": r["rule_new"],
        })
    summary: dict[str, dict[str, int]] = {}
    for c in changed:
        direction = f"{c['old_verdict']} -> {c['new_verdict']}"
        if c["old_verdict"] == c["new_verdict"]:
            direction = f"{c['old_verdict']} (declined {c['old_declined']} -> {c['new_declined']}, failure changed)"
        summary.setdefault(c["corpus"], {}).setdefault(direction, 0)
        summary[c["corpus"]][direction] += 1
    worse = [c for c in changed if c["old_verdict"] == "correct" and RANK[c["new_verdict"]] < RANK["correct"]]
    return {
        "compared": len(merged),
        "changed": len(changed),
        "monotone": not worse,
        "summary": {k: dict(sorted(v.items())) for k, v in sorted(summary.items())},
        "flips": changed,
    }


def delta_frame(delta: dict) -> pd.DataFrame:
    return pd.DataFrame(delta["flips"], columns=DELTA_COLUMNS)
