"""A team's own bound: how many of its own labels show firmness at alpha, and does the promise hold?

For each shipped labelled set, as a team whose corpus is like it would: the confidence model is fitted
on the other sets only (the team's answers were never seen), then `--labels` of the set's answers are
drawn at random, `--draws` times (seeded); the bound (trust/bound.py) chooses the set's own threshold on
those labels, and the set's other answers say whether people disagree with at most alpha of the verdicts
it makes firm. Printed per set: the share of draws that show any bound, the mean firm share it gives on
the other answers, and the share of draws where the promise broke (firm disagreement above alpha on the
other answers: at most delta is the promise).

    python bench/trust_own_bound.py [--labels 300] [--draws 100] [--json]

It reads ../shared/data (FinanceBench's labelled files are graded over the ingested filings) and takes
about a minute.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    from ragpipe.cli.trust import evidence_frame
    from ragpipe.grading.rules import load_rules
    from ragpipe.trust.bound import firm_threshold
    from ragpipe.trust.fit import MIN_SUPPORT, fitted_weights, scored

    parser = argparse.ArgumentParser()
    parser.add_argument("--labels", type=int, default=300)
    parser.add_argument("--draws", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = load_rules()
    alpha, delta = rules.trust.alpha, rules.trust.delta
    frame, _ = evidence_frame(ROOT.parent / "shared" / "data", rules)
    rng = np.random.default_rng(args.seed)
    out = {}
    for held in sorted(frame["set"].unique()):
        weights, intercept = fitted_weights(frame[frame["set"] != held], MIN_SUPPORT)
        mine = frame[frame["set"] == held]
        conf = scored(weights, intercept, mine["features"])
        off = 1 - mine["agree"].to_numpy(dtype=int)
        shown, shares, broken = 0, [], 0
        for _ in range(args.draws):
            drawn = np.zeros(len(mine), dtype=bool)
            drawn[rng.choice(len(mine), args.labels, replace=False)] = True
            bound = firm_threshold(conf[drawn], off[drawn], alpha, delta)
            rest = ~drawn
            firm = rest & (conf >= bound.threshold)
            shares.append(float(firm.sum() / rest.sum()))
            if bound.holds:
                shown += 1
                broken += int(firm.any() and off[firm].mean() > alpha)
        out[held] = {
            "answers": len(mine),
            "labels": args.labels,
            "draws": args.draws,
            "draws_with_a_bound": round(shown / args.draws, 4),
            "mean_firm_share": round(float(np.mean(shares)), 4),
            "promise_broken": round(broken / args.draws, 4),
        }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"alpha {alpha}, delta {delta}: {args.labels} labels drawn {args.draws} times per set (seed {args.seed})")
    print("| set | answers | draws that show a bound | firm share on the rest | draws where the promise broke |")
    print("|---|---|---|---|---|")
    for name, r in out.items():
        print(
            f"| {name} | {r['answers']} | {r['draws_with_a_bound']:.0%} | {r['mean_firm_share']:.1%} "
            f"| {r['promise_broken']:.0%} |"
        )


if __name__ == "__main__":
    main()
