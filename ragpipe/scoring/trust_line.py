"""What firm means on one answer set's scorecard: the share of firm verdicts, and the bound behind it.

With enough of the corpus's own people's labels (human_labels), the set's own threshold is chosen on
them by the bound (trust/bound.py) and the scorecard says "firm 54%: people disagree with at most 1% of
these (90% confidence, 312 of your labels)"; else "firm 48% by the shipped calibration: no bound
measured on this corpus". The grades keep the shipped firmness either way: the labels change what the
scorecard can promise, not a verdict.
"""

from __future__ import annotations

import pandas as pd

from ragpipe.trust.bound import firm_threshold
from ragpipe.trust.evidence import agrees, says


def trust_columns(grades: pd.DataFrame, people: pd.Series, alpha: float, delta: float) -> dict:
    """`firm_pct` and `trust` (the sentence) for one answer set's grades; `people`: answer_id -> class."""
    from ragpipe.answering.labels import HUMAN_CLASSES

    correct, _, refusal = HUMAN_CLASSES
    if grades.empty or "confidence" not in grades or grades["confidence"].isna().all():
        return {"firm_pct": None, "trust": None}
    firm_pct = round(100 * float(grades["firm"].astype(bool).mean()), 1)
    known = set(people.index)
    labelled = grades[[a in known and c == c for a, c in zip(grades["answer_id"], grades["confidence"])]]
    if labelled.empty:
        return {
            "firm_pct": firm_pct,
            "trust": f"firm {firm_pct}% by the shipped calibration: no bound measured on this corpus",
        }
    said = [says(k, v, bool(d)) for k, v, d in zip(labelled["kind"], labelled["verdict"], labelled["declined"])]
    label = people.loc[labelled["answer_id"]].to_numpy()
    off = [int(not agrees(k, s, h == correct, h == refusal)) for k, s, h in zip(labelled["kind"], said, label)]
    own = firm_threshold(labelled["confidence"].astype(float), off, alpha, delta)
    if not own.holds:
        return {
            "firm_pct": firm_pct,
            "trust": f"firm {firm_pct}% by the shipped calibration: your {len(labelled)} labels show no bound at "
            f"{alpha:.0%} yet",
        }
    share = round(100 * float((grades["confidence"].astype(float) >= own.threshold).mean()), 1)
    return {
        "firm_pct": share,
        "trust": f"firm {share}%: people disagree with at most {alpha:.0%} of these ({1 - delta:.0%} confidence, "
        f"{len(labelled)} of your labels)",
    }
