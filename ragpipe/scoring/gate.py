"""A gate for CI: does candidate B hold up against baseline A, beyond noise?

Four checks, each PASS or FAIL with its figures, all computed from the two
answer sets' grades on the questions they share (scoring/compare.py):

- **accuracy**, by one of two rules, and the verdict says which decided:
  - *the measured drop* (the default): B fails when B - A is more than
    `max_drop` points down (1 by default), or when the whole 95% paired-
    bootstrap interval of B - A lies below 0. A threshold reads as one: the
    default fails a 16-point drop, whatever the interval says. And B fails when
    the question set is too small to see a drop of that size: when the
    interval reaches further down than `max_drop`, a pass would say nothing,
    so the gate says so and fails unless `accept_wide` tells it to pass on
    the measured drop alone.
  - *beyond noise* (`beyond_noise`, opted into): B fails only when the whole
    interval lies below -max_drop points (0 by default), i.e. B is worse by
    more than the noise of this question set can explain; a drop inside the
    interval passes, with a note that it is within the noise.
- **money**: B fails when any of its answers states a wrong amount of money
  (ZERO-WRONG-MONEY; the grader's `wrong money figure` failure).
- **coverage**: B fails when it has no answer to a question A answered, so
  a system cannot pass by skipping what it gets wrong.
- **ruler**: B fails when the two sets were graded by different grader
  versions (their difference would be the ruler's, not the systems'), or
  by a grader other than the one loaded now (the rules changed since).
"""

from __future__ import annotations

import pandas as pd

from ragpipe.grading.outcomes import WRONG_MONEY
from ragpipe.scoring.interval_text import interval_text

MEASURED, BEYOND_NOISE = "measured drop", "beyond noise"
DEFAULT_DROP = 1.0  # accuracy points B may lose, measured, when the gate is told nothing


def _ruler(versions: list[str], loaded: str | None) -> str:
    said = f"graded by {' and '.join(versions)}"
    if len(versions) > 1:
        return said + ": regrade both with one grader (`ragpipe regrade`)"
    if loaded is not None and loaded not in versions:  # the rules changed (or RAGPIPE_RULES names others)
        return said + f", not by the grader loaded now ({loaded}): `ragpipe regrade`, then gate"
    return said


def gate(
    result: dict,
    baseline: pd.DataFrame,
    candidate: pd.DataFrame,
    max_drop: float | None = None,
    beyond_noise: bool = False,
    accept_wide: bool = False,
    loaded: str | None = None,
) -> dict:
    """The gate's verdict on `result` (compare's dict of B against A) and the two grades tables;
    `max_drop` in accuracy points: the measured drop B may show (DEFAULT_DROP unless given), or, with
    `beyond_noise`, the drop the whole interval must lie beyond for B to fail (0 unless given).
    `accept_wide`: pass on the measured drop where the interval is too wide to see a drop of `max_drop`.
    `loaded`: the grader version the pair is graded with now; grades by another are the old ruler's."""
    if max_drop is not None and not 0 <= max_drop <= 100:  # NaN fails this too; inf would switch it off unsaid
        raise ValueError(f"max_drop is a drop in accuracy points, from 0 to 100, not {max_drop!r}")
    rule = BEYOND_NOISE if beyond_noise else MEASURED
    allowed = max_drop if max_drop is not None else (0.0 if beyond_noise else DEFAULT_DROP)
    floor = -allowed / 100
    money = candidate[candidate["failure"] == WRONG_MONEY]["question_id"].sort_values().tolist()
    versions = sorted(set(baseline["grader_version"]) | set(candidate["grader_version"]))
    measured = (
        f"B - A {100 * result['diff']:+.1f} points (95% interval "
        f"{interval_text(100 * result['ci_low'], 100 * result['ci_high'], signed=True)}) on {result['n']} questions"
    )
    if rule == MEASURED:
        dropped, below = result["diff"] < floor, result["ci_high"] < 0
        wide = result["ci_low"] < floor and not accept_wide
        passed = not (dropped or below or wide)
        said = f"{measured}; by the measured drop: fails when B - A is more than {allowed:g} points down"
        if below and not dropped:
            said += ", or when the whole interval lies below 0, as here"
        elif wide and not dropped:
            said += (
                f"; these {result['n']} questions are too few to see a drop of {allowed:g} points (the interval "
                f"reaches {100 * result['ci_low']:+.1f}): add questions, or pass on the measured drop alone "
                "with --accept-wide-interval"
            )
    else:
        passed = result["ci_high"] >= floor
        said = f"{measured}; beyond noise: fails when the whole interval lies below {-allowed if allowed else 0:g}"
        if passed and result["diff"] < floor:
            said += f" (a drop this size is within the noise of {result['n']} questions: more questions narrow it)"
    checks = [
        {"check": "accuracy", "passed": passed, "said": said},
        {
            "check": "money",
            "passed": not money,
            "said": f"B states a wrong amount of money in {len(money)} answer(s)"
            + (f": {', '.join(money[:10])}" + (" ..." if len(money) > 10 else "") if money else ""),
            "questions": money,
        },
        {
            "check": "coverage",
            "passed": not result["only_a"],
            "said": f"B has no answer to {len(result['only_a'])} question(s) A answered"
            + (f": {', '.join(result['only_a'][:10])}" if result["only_a"] else ""),
            "questions": result["only_a"],
        },
        {
            "check": "ruler",
            "passed": len(versions) == 1 and loaded in (None, *versions),
            "said": _ruler(versions, loaded),
        },
    ]
    return {
        "passed": all(c["passed"] for c in checks),
        "max_drop": allowed,
        "accuracy_rule": rule,
        "checks": checks,
        "compare": result,
    }


def gate_lines(verdict: dict) -> list[str]:
    """`PASS accuracy: ...` per check, then the verdict."""
    lines = [f"{'PASS' if c['passed'] else 'FAIL'} {c['check']}: {c['said']}" for c in verdict["checks"]]
    r = verdict["compare"]
    failed = [c["check"] for c in verdict["checks"] if not c["passed"]]
    lines.append(
        f"gate {'passed' if verdict['passed'] else 'FAILED (' + ', '.join(failed) + ')'}: "
        f"candidate {r['b']} against baseline {r['a']}"
    )
    return lines
