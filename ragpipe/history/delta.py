"""Before/after: which verdicts a grader change flipped, in which direction, and by which rule.

A delta compares two sets of verdicts on the same answers. Every answer
whose verdict, declined flag or failure label changed is listed with the old
and new value and the rule that decided each; the summary counts flips by
direction per corpus; `monotone` is false when any verdict moved from
correct to something worse.
"""

from __future__ import annotations

import pandas as pd

from ragpipe.grading.grade import Verdict
from ragpipe.warehouse.nulls import records

KEY = ["corpus", "config", "answer_set", "question_id", "answer_id"]
RANK = {Verdict.CORRECT: 3, Verdict.PARTIAL: 2, Verdict.WRONG: 1, Verdict.UNGRADABLE: 0}  # better is higher
DELTA_COLUMNS = KEY + [
    "old_verdict",
    "new_verdict",
    "old_declined",
    "new_declined",
    "old_failure",
    "new_failure",
    "old_rule",
    "new_rule",
]


def _same(a, b) -> bool:
    return (pd.isna(a) and pd.isna(b)) or a == b


def grade_delta(old: pd.DataFrame, new: pd.DataFrame) -> dict:
    """Compare verdict tables (grades or history rows) on the answers both hold."""
    cols = ["verdict", "declined", "failure", "rule"]
    merged = old[KEY + cols].merge(new[KEY + cols], on=KEY, suffixes=("_old", "_new"))
    changed = []
    for r in records(merged.sort_values(KEY)):
        if all(_same(r[f"{c}_old"], r[f"{c}_new"]) for c in ("verdict", "declined", "failure")):
            continue
        changed.append(
            {
                **{k: r[k] for k in KEY},
                "old_verdict": r["verdict_old"],
                "new_verdict": r["verdict_new"],
                "old_declined": bool(r["declined_old"]),
                "new_declined": bool(r["declined_new"]),
                "old_failure": None if pd.isna(r["failure_old"]) else r["failure_old"],
                "new_failure": None if pd.isna(r["failure_new"]) else r["failure_new"],
                "old_rule": r["rule_old"],
                "new_rule": r["rule_new"],
            }
        )
    return of_flips(changed, len(merged))


def of_flips(changed: list[dict], compared: int) -> dict:
    """A delta from its flips (rows of DELTA_COLUMNS) and the number of answers compared: the flips by
    direction per corpus, and whether no correct verdict got worse."""
    summary: dict[str, dict[str, int]] = {}
    for c in changed:
        direction = f"{c['old_verdict']} -> {c['new_verdict']}"
        if c["old_verdict"] == c["new_verdict"]:
            direction = f"{c['old_verdict']} (declined {c['old_declined']} -> {c['new_declined']}, failure changed)"
        summary.setdefault(c["corpus"], {}).setdefault(direction, 0)
        summary[c["corpus"]][direction] += 1
    worse = [
        c for c in changed if c["old_verdict"] == Verdict.CORRECT and RANK[c["new_verdict"]] < RANK[Verdict.CORRECT]
    ]
    return {
        "compared": compared,
        "changed": len(changed),
        "monotone": not worse,
        "summary": {k: dict(sorted(v.items())) for k, v in sorted(summary.items())},
        "flips": changed,
    }


def said_by_direction(delta: dict) -> str:
    """The summary as markdown lines, "- demo: correct -> wrong: 4", for a materialization's metadata."""
    lines = [f"- {c}: {d}: {n}" for c, dirs in delta["summary"].items() for d, n in dirs.items()]
    return "\n".join(lines) or "no verdict changed"


def delta_frame(delta: dict) -> pd.DataFrame:
    return pd.DataFrame(delta["flips"], columns=DELTA_COLUMNS)


def _last_two(conn, corpus: str, config: str):
    """The pair's two latest grading events (rows of `grading_events`), or None before the second."""
    from ragpipe.history.ledger import grading_events

    events = grading_events(conn, corpus, config)
    return None if len(events) < 2 else (events.iloc[-2], events.iloc[-1])


def _last_change(conn, corpus: str, config: str):
    """The gradings `ragpipe delta` compares for a pair: its latest, and the latest before it under another
    grader version (a regrade that changed nothing hides no change), or the one just before it where every
    grading had the latest's version. None before the second grading."""
    from ragpipe.history.ledger import grading_events

    events = grading_events(conn, corpus, config)
    if len(events) < 2:
        return None
    after = events.iloc[-1]
    other = events[events["grader_version"] != after["grader_version"]]
    before = other.iloc[-1] if len(other) else events.iloc[-2]
    between = int(((events["seq"] > before["seq"]) & (events["seq"] < after["seq"])).sum())
    return before, after, between


def _between(conn, corpus: str, config: str, before, after) -> dict:
    """The flips between the pair's grading events `before` and `after`: only an answer a grading after
    `before` wrote a history row for can have moved (a row is written whenever a verdict or its inputs do),
    so those answers' rows as of `after` are compared with their rows as they stood after `before`. Read by
    the answers that moved, whatever the length of the history."""
    from ragpipe.history.ledger import before_event, moved_between

    now = moved_between(conn, corpus, config, int(before["seq"]), int(after["seq"]))
    if now.empty:
        return of_flips([], _compared(after, 0))
    prior = before_event(conn, corpus, config, int(before["seq"]), int(after["seq"]))
    delta = grade_delta(prior, now)
    delta["compared"] = _compared(after, len(now) - len(prior), delta["compared"])
    return delta


def _compared(after, first_graded: int, merged: int | None = None) -> int:
    """The answers a delta is "of": those the pair held at its later grading (its event's `answers`) less
    those first graded there; an event that did not count its answers falls back to the ones compared."""
    held = after["answers"]
    if held is None or pd.isna(held):
        return int(merged or 0)
    return int(held) - first_graded


def event_delta(conn, corpus: str, config: str) -> dict | None:
    """What the pair's latest grading changed against the one before it, whatever the versions
    (a revert reads as the inverse of the change it undoes); None before the second grading."""
    last = _last_two(conn, corpus, config)
    if last is None:
        return None
    before, after = last
    return {**_event_keys(corpus, config, before, after), **_between(conn, corpus, config, before, after)}


def _event_keys(corpus: str, config: str, before, after) -> dict:
    return {
        "corpus": corpus,
        "config": config,
        "from_event": int(before["seq"]),
        "to_event": int(after["seq"]),
        "from_version": before["grader_version"],
        "to_version": after["grader_version"],
        "from_graded_at": before["graded_at"],
        "to_graded_at": after["graded_at"],
    }


DELTAS_COMPUTED = "grade_deltas_computed"  # one row per delta the grade_delta asset computed, flips or none


def record_delta(conn, keys: dict, changed: int) -> None:
    """Say that the delta between two grading events (`keys`) was computed, and how many it flipped: a
    delta of no flips stores no row in `grade_deltas`, and a reader must not compute it again."""
    from ragpipe.warehouse.tables import replace_partition

    replace_partition(conn, DELTAS_COMPUTED, pd.DataFrame([{**keys, "changed": int(changed)}]), keys)


def latest_flips(conn, corpus: str, config: str) -> tuple[str, list[dict]] | None:
    """(the grader version before, the flips) of the pair's last change (`latest_delta`); None before the
    second grading."""
    delta = latest_delta(conn, corpus, config)
    return None if delta is None else (str(delta["from_version"]), delta["flips"])


def latest_delta(conn, corpus: str, config: str) -> dict | None:
    """The pair's last change (`_last_change`: its latest grading against the latest under another grader
    version), as the grade_delta asset stored it where the two are consecutive (`grade_deltas`, keyed by
    the two grading events, and `grade_deltas_computed`, which says a delta of no flips was computed too);
    computed where the asset has not caught up or gradings lie between. None before the second grading."""
    from ragpipe.history.ledger import first_graded_at

    last = _last_change(conn, corpus, config)
    if last is None:
        return None
    before, after, between = last
    keys = {"corpus": corpus, "config": config, "from_event": int(before["seq"]), "to_event": int(after["seq"])}
    # the asset stores each grading's delta against the one just before it: gradings between, none stored
    flips = None if between else _stored_flips(conn, keys)
    said = {**_event_keys(corpus, config, before, after), "between": between}
    if flips is None:
        return {**said, **_between(conn, corpus, config, before, after)}
    first = first_graded_at(conn, corpus, config, int(before["seq"]), int(after["seq"]))
    return {**said, **of_flips(flips, _compared(after, first))}


def _stored_flips(conn, keys: dict) -> list[dict] | None:
    """The flips the grade_delta asset stored for the two grading events `keys` names: `grade_deltas`, and
    `grade_deltas_computed`, which says a delta of no flips was computed too. None where it has not."""
    from ragpipe.warehouse.tables import read_partition, table_exists

    if table_exists(conn, DELTAS_COMPUTED):
        computed = read_partition(conn, DELTAS_COMPUTED, keys)
        if len(computed) and int(computed["changed"].iloc[0]) == 0:
            return []
    if table_exists(conn, "grade_deltas"):
        stored = read_partition(conn, "grade_deltas", keys, order_by=", ".join(KEY))
        if len(stored):
            return [
                {**f, "old_declined": bool(f["old_declined"]), "new_declined": bool(f["new_declined"])}
                for f in records(stored[DELTA_COLUMNS])
            ]
    return None


def _merge(deltas: list[dict]) -> dict:
    """One delta over several pairs' deltas."""
    summary: dict[str, dict[str, int]] = {}
    for d in deltas:
        for corpus, directions in d["summary"].items():
            for direction, n in directions.items():
                summary.setdefault(corpus, {}).setdefault(direction, 0)
                summary[corpus][direction] += n
    return {
        "compared": sum(d["compared"] for d in deltas),
        "changed": sum(d["changed"] for d in deltas),
        "monotone": all(d["monotone"] for d in deltas),
        "summary": {k: dict(sorted(v.items())) for k, v in sorted(summary.items())},
        "flips": [f for d in deltas for f in d["flips"]],
    }


def _one(values) -> str:
    distinct = sorted(set(values))
    return distinct[0] if len(distinct) == 1 else ", ".join(distinct)


def stored_delta(
    conn,
    corpus: str | None = None,
    config: str | None = None,
    from_version: str | None = None,
    to_version: str | None = None,
) -> dict:
    """The delta `ragpipe delta` prints. By default each pair's last two grading events, previous ->
    current; with `from_version`/`to_version`, each answer's latest verdict under those versions.
    Scorecards and agreement with people side by side for the versions involved."""
    from ragpipe.history.ledger import grader_versions, grading_events, verdicts_at

    if from_version is None and to_version is None:
        pairs = grading_events(conn, corpus, config)[["corpus", "config"]].drop_duplicates().itertuples(index=False)
        deltas = [d for d in (latest_delta(conn, c, k) for c, k in sorted(pairs)) if d is not None]
        if not deltas:
            raise LookupError("no pair has been graded twice yet: a delta needs two gradings (`ragpipe regrade`)")
        result = {
            "from_version": _one(d["from_version"] for d in deltas),
            "to_version": _one(d["to_version"] for d in deltas),
            "events": [
                {
                    k: d[k]
                    for k in (
                        "corpus",
                        "config",
                        "from_event",
                        "to_event",
                        "from_version",
                        "to_version",
                        "from_graded_at",
                        "to_graded_at",
                        "between",
                        "changed",
                    )
                }
                for d in deltas
            ],
            **_merge(deltas),
        }
        version_pairs = {(d["corpus"], d["config"]): (d["from_version"], d["to_version"]) for d in deltas}
    else:
        versions = grader_versions(conn, corpus, config)
        if len(versions) < 2 and (from_version is None or to_version is None):
            raise LookupError(f"the warehouse holds {len(versions)} grader version(s); a delta needs two")
        before, after = from_version or versions[-2], to_version or versions[-1]
        for v in (before, after):
            if v not in versions:
                raise LookupError(f"unknown grader version {v!r}; known: {', '.join(versions)}")
        result = {
            "from_version": before,
            "to_version": after,
            "events": [],
            **grade_delta(verdicts_at(conn, before, corpus, config), verdicts_at(conn, after, corpus, config)),
        }
        version_pairs = None
    result["scorecards"] = _side_by_side(
        conn,
        "scorecard_history",
        result,
        version_pairs,
        ["corpus", "config", "answer_set"],
        ("overall_pct", "correct", "partial", "wrong", "money_bar"),
    )
    result["agreement"] = _side_by_side(
        conn,
        "agreement",
        result,
        version_pairs,
        ["corpus", "config"],
        ("accuracy", "kappa", "refusal_f1", "false_correct", "false_correct_numeric"),
        where="scope = 'overall'",
    )
    return result


def _side_by_side(
    conn, table: str, result: dict, version_pairs: dict | None, keys: list[str], fields: tuple, where: str = "TRUE"
) -> list[dict]:
    """Rows of `table` (one per key and grader version, among those `where` selects) before and after,
    for each key the delta covers."""
    from ragpipe.warehouse.tables import table_exists

    if not table_exists(conn, table):
        return []
    versions = sorted(
        {v for pair in (version_pairs or {}).values() for v in pair} | {result["from_version"], result["to_version"]}
    )
    rows = conn.execute(
        f"SELECT * FROM {table} WHERE {where} AND list_contains(?, grader_version) ORDER BY ALL", [versions]
    ).df()
    out = []
    for key, group in rows.groupby(keys, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        named = dict(zip(keys, key))
        pair = (named["corpus"], named["config"])
        if version_pairs is not None:
            if pair not in version_pairs:
                continue
            before, after = version_pairs[pair]
        else:
            before, after = result["from_version"], result["to_version"]
        by_version = {r["grader_version"]: r for r in records(group)}
        if before in by_version and after in by_version:
            out.append(
                {
                    **named,
                    **{f"{k}_before": by_version[before][k] for k in fields},
                    **{f"{k}_after": by_version[after][k] for k in fields},
                }
            )
    return out
