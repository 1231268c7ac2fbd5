"""A judge measured like every check: rules alone, the judge alone, and both, against the same people.

`judged_report` compares, on one labelled set: the rules' grades; the combined grades (the judge
deciding where it was asked); and the judge alone on the answers it judged (beside the rules on those
same answers). Each is split by the rules' own firmness, with the share of answers judged: a judge is
worth its calls where it beats the rules on the answers it is asked about.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ragpipe.corpus.questions import question_from_row
from ragpipe.grader_agreement.agreement import FIRMNESS, agreement, labelled_frame, on_the_labels_scale
from ragpipe.judge import (
    MONEY_CORRECT_REFUSED,
    UNPARSED,
    Asked,
    JudgeConfig,
    JudgeIdentity,
    judge_table,
    judged_rules,
    judgments_frame,
    read_judgments,
    recorded_identity,
)
from ragpipe.warehouse.nulls import records


@dataclass
class JudgeRun:
    """A judge to grade with: who it is, how to ask it (None: recorded verdicts only), what is stored;
    or a file of recorded verdicts (`recorded`), read against the questions being graded."""

    identity: JudgeIdentity | None
    config: JudgeConfig | None
    stored: pd.DataFrame | None = None
    judge_on: str = "tentative"
    recorded: Path | None = None
    keep: tuple = ()  # KeepRule: rule verdicts it may not overturn (its configuration's, and --keep)
    budget: float | None = None  # the share of answers it may be asked about, least confident first
    new: pd.DataFrame | None = None  # judgments asked during the run, for the caller to store
    asked: Asked = field(default_factory=Asked)
    problems: list = field(default_factory=list)

    def _read_recorded(self, questions: pd.DataFrame) -> None:
        by_id = {row["question_id"]: question_from_row(row) for row in records(questions)}
        assert self.recorded is not None
        judgments, self.problems = read_judgments(self.recorded, by_id)
        names = sorted({j.judge for j in judgments})
        if self.identity is None:
            if len(names) > 1:
                raise ValueError(f"{self.recorded}: verdicts of {len(names)} judges ({', '.join(names)}): name one")
            self.identity = recorded_identity(names[0] if names else "recorded")
        self.stored = judgments_frame([j for j in judgments if j.judge_id == self.identity.id])

    def apply(self, grades: pd.DataFrame, answers: pd.DataFrame, questions: pd.DataFrame, rules) -> pd.DataFrame:
        """`grades` with the judge applied, its grader version naming the judge."""
        if self.recorded is not None:
            self._read_recorded(questions)
        assert self.identity is not None  # configured, or named by the recorded verdicts
        combined, self.new, self.asked = judge_table(
            grades,
            answers,
            questions,
            self.stored,
            self.identity,
            self.config,
            self.judge_on,
            keep=self.keep,
            budget=self.budget,
        )
        combined["grader_version"] = judged_rules(rules, self.identity, self.keep, self.budget).version
        return combined


def figures(frame: pd.DataFrame) -> dict:
    """A labelled frame's agreement figures, on the labels' scale."""
    scaled, _ = on_the_labels_scale(frame)
    r = agreement(scaled)
    keep = ("n", "accuracy", "kappa", "false_correct", "false_correct_numeric")
    return {**{k: r[k] for k in keep}, "refusal_f1": r["refusal"]["f1"]}


def judged_report(rules_grades: pd.DataFrame, combined: pd.DataFrame, answers, questions) -> dict:
    """Rules alone, combined, and the judge alone on what it judged; by the rules' firmness too."""
    by_rules = labelled_frame(rules_grades, answers, questions)
    both = labelled_frame(combined, answers, questions)
    judged = both["judge_verdict"].notna() & (both["judge_verdict"] != UNPARSED)
    report = {
        "n": len(both),
        "judged": int(judged.sum()),
        "share_judged": round(float(judged.mean()), 4) if len(both) else 0.0,
        "unparsed": int((both["judge_verdict"] == UNPARSED).sum()),
        # the judge's "correct" on a money answer without the key, refused (judge/apply.py: ZERO-WRONG-MONEY)
        "money_refused": int(both["judge_reason"].astype(str).str.startswith(MONEY_CORRECT_REFUSED).sum())
        if "judge_reason" in both
        else 0,
        "rules": figures(by_rules),
        "combined": figures(both),
    }
    if judged.any():
        report["judge_alone"] = figures(both[judged])
        report["rules_on_judged"] = figures(by_rules[judged.to_numpy()])
        report["by_kind_rule"] = moved_by_kind_rule(by_rules, both, judged.to_numpy())
    firm = by_rules["firm"].astype(bool).to_numpy()
    report["by_firmness"] = {
        FIRMNESS[value]: {"rules": figures(by_rules[mask]), "combined": figures(both[mask])}
        for value, mask in ((True, firm), (False, ~firm))
        if mask.any()
    }
    return report


def moved_by_kind_rule(by_rules: pd.DataFrame, both: pd.DataFrame, judged) -> list[dict]:
    """Over the answers the judge decided, per (question kind, the rule that decided before it): how many
    people agree with the rules' verdict, how many with the judge's, and the difference. Where `moved` is
    below zero the judge overturned verdicts people held: a `keep:` entry (judge/keep.py) for that kind and
    rule leaves them to the rules. On the labels' scale, as every other figure."""
    rules_scaled, _ = on_the_labels_scale(by_rules)
    both_scaled, _ = on_the_labels_scale(both)
    frame = pd.DataFrame(
        {
            "kind": both_scaled["kind"].astype(str).to_numpy(),
            "rule": rules_scaled["rule"].fillna("none").astype(str).to_numpy(),
            "rules": (rules_scaled["human"] == rules_scaled["grader"]).to_numpy(),
            "judge": (both_scaled["human"] == both_scaled["grader"]).to_numpy(),
        }
    )[judged]
    rows = [
        {
            "kind": kind,
            "rule": rule,
            "n": len(g),
            "rules_agree": int(g["rules"].sum()),
            "judge_agree": int(g["judge"].sum()),
            "moved": int(g["judge"].sum() - g["rules"].sum()),
        }
        for (kind, rule), g in frame.groupby(["kind", "rule"], sort=True)
    ]
    return sorted(rows, key=lambda r: (r["moved"], r["kind"], r["rule"]))
