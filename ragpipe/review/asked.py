"""What the grader read a question as asking, in a line a reviewer reads beside the verdict (the
`question_readings` table's row: grading/question_reading.py)."""

from __future__ import annotations

import pandas as pd


def _given(value) -> bool:
    return value is not None and not (isinstance(value, float) and pd.isna(value)) and value is not pd.NA


def asked_line(row: dict) -> str:
    """ "the measure net pay period (qualified: net pay); a money key, $3,339.23 at 2 decimals; a figure" and so on:
    each part the reading holds, in the order a check reads them; "" when it holds none."""
    parts = []
    if _given(row.get("measure")):
        qualified = f" (qualified: {row['qualifiers']})" if _given(row.get("qualifiers")) else ""
        parts.append(f"the measure {row['measure']}{qualified}")
    if _given(row.get("money_key")):
        precision = f" at {int(row['precision'])} decimals" if _given(row.get("precision")) else ""
        parts.append(f"a money key, {row['money_key']}{precision}")
    elif row.get("money_question"):
        parts.append("money")
    if _given(row.get("money_measure")):
        period = f", {row['money_period']}" if _given(row.get("money_period")) else ""
        parts.append(f"the amount of {row['money_measure']}{period}")
    if _given(row.get("unit")):
        parts.append(f"amounts in units of {row['unit']}")
    if _given(row.get("slot")):
        parts.append(f"who or what {row['slot']}")
    if _given(row.get("choice")):
        parts.append(f"a choice of {row['choice']}")
    if _given(row.get("polarity")):
        parts.append(f"yes or no (the gold: {row['polarity']})")
    parts += [said for flag, said in _FLAGS if row.get(flag)]
    return "; ".join(parts)


_FLAGS = (("figure_wanted", "a figure"), ("several", "several things"), ("why", "a reason"))
