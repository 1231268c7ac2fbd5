"""Everything the review report shows, read from the warehouse (read-only) into plain data.

A report is for one (corpus, configuration), optionally one answer set, at the
current grader version or an older one from `grade_history`. An older verdict
whose answer text has changed since is flagged, not silently re-annotated.

What the assets stored is read, not recomputed: the scorecards (people's
accuracy included) from `scorecards`, or from `scorecard_history` for an older
grader version; the slices from `scorecard_slices`; the flips of the latest
grading from its stored delta; the highlighted spans from `grades.matched`.
the leaderboard from `leaderboards`. Only what no asset stores is computed
here: an older version's leaderboard and slices, and a delta between two
versions a reader picks.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

import pandas as pd

from ragpipe.answering.labels import HUMAN_CLASSES
from ragpipe.grader_agreement.agreement import confusion_matrix, grader_class
from ragpipe.grading.grade import Verdict
from ragpipe.history.delta import grade_delta, latest_flips
from ragpipe.history.ledger import grader_versions, verdicts_at
from ragpipe.inputs.fingerprint import answer_sha
from ragpipe.review.asked import asked_line
from ragpipe.review.cited import cited_passages
from ragpipe.scoring.leaderboard import leaderboard
from ragpipe.scoring.scorecard import people_text
from ragpipe.scoring.slices import slice_rows
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.tables import read_partition, table_exists


class ReviewError(LookupError):
    """The warehouse has nothing to review for what was asked; the message says what it has."""


@dataclass
class Review:
    corpus: str
    config: str
    answer_set: str | None
    grader_version: str
    rows: list[dict]
    needles: dict[str, list[dict]]
    scorecards: list[dict]
    pairs: pd.DataFrame  # verdict counts per (corpus, config, answer set) at this grader version
    latencies: list[float]
    confusion: dict[str, dict[str, int]] | None
    delta_from: str | None
    flips: list[dict]
    audit_sample: list[str]  # answer ids of the PASS audit, in the order drawn
    seed: int = 0
    versions: list[str] = field(default_factory=list)
    leaderboard: list[dict] = field(default_factory=list)  # every answer set of the pair, ranked
    slices: list[dict] = field(default_factory=list)  # counts per question type and kind, per answer set


def _grades(conn, corpus: str, config: str, grader: str | None) -> tuple[pd.DataFrame, str]:
    keys = {"corpus": corpus, "config": config}
    if not table_exists(conn, "grades"):
        raise ReviewError("the warehouse has no grades yet: run `ragpipe run` first")
    current = read_partition(conn, "grades", keys)
    if current.empty:
        raise ReviewError(
            f"no grades for corpus {corpus!r}, config {config!r}: run `ragpipe run --corpus {corpus} --config {config}`"
        )
    if grader is None or grader == current["grader_version"].iloc[0]:
        return current, current["grader_version"].iloc[0]
    older = verdicts_at(conn, grader, corpus, config)
    if older.empty:
        known = ", ".join(grader_versions(conn, corpus, config)) or "none"
        raise ReviewError(f"grader version {grader!r} never graded {corpus}/{config}; versions that did: {known}")
    return older, grader


def _stored(conn, table: str, corpus: str, config: str, version: str, answer_set: str | None) -> pd.DataFrame:
    """The rows an asset stored for the pair at grader `version` (empty where it stored none)."""
    if not table_exists(conn, table):
        return pd.DataFrame()
    rows = read_partition(conn, table, {"corpus": corpus, "config": config})
    if "grader_version" in rows:
        rows = rows[rows["grader_version"] == version]
    return rows if answer_set is None else rows[rows["answer_set"] == answer_set]


def _scorecards(conn, corpus: str, config: str, version: str, answer_set: str | None) -> list[dict]:
    """The scorecards the `scorecards` asset stored at `version`: the current ones, or for an older
    version the first recorded in `scorecard_history`."""
    cards = _stored(conn, "scorecards", corpus, config, version, answer_set)
    if cards.empty:
        cards = _stored(conn, "scorecard_history", corpus, config, version, answer_set)
    cards = records(cards.sort_values("answer_set")) if len(cards) else []
    return [{**card, "people": people_text(card)} for card in cards]


def _cited_pages(conn, corpus: str, config: str, cited: list[str]) -> dict[str, tuple[str, int, int]]:
    """(document, first page, last page) of each chunk in `cited`."""
    passages = cited_passages(conn, corpus, config, cited)
    return {c: (p["doc_id"], int(p["page_start"]), int(p["page_end"])) for c, p in passages.items()}


def _golden(docs, pages_json) -> list[tuple[str, list[int]]]:
    """(document, 1-indexed evidence pages) for each golden document."""
    pages = json.loads(pages_json) if isinstance(pages_json, str) and pages_json else {}
    return [(d, list(pages.get(d, []))) for d in _listed(docs)]


def _listed(value) -> list:
    return [] if value is None or (isinstance(value, float) and pd.isna(value)) else list(value)


def _stored_leaderboard(conn, corpus: str, config: str, version: str) -> list[dict]:
    """The leaderboard the scorecards asset stored at `version` (none for an older version)."""
    rows = _stored(conn, "leaderboards", corpus, config, version, None)
    if rows.empty:
        return []
    columns = [c for c in rows.columns if c not in ("corpus", "config", "grader_version")]
    return records(rows.sort_values(["rank", "system"])[columns])


def _attributions(conn, corpus: str, config: str) -> dict[tuple[str, str], str]:
    """(answer set, question) -> where the answer failed, as the scorecards attributed it."""
    if not table_exists(conn, "failure_attribution"):
        return {}
    rows = read_partition(conn, "failure_attribution", {"corpus": corpus, "config": config})
    return {(r["answer_set"], r["question_id"]): r["attribution"] for r in records(rows)}


def _asked(conn, corpus: str, config: str) -> dict[tuple[str, str], str]:
    """(question id, kind as graded) -> what the rules read the question as asking, in a line (review/asked.py):
    stored by the rule verdicts' stage, none for a pair graded before it stored them."""
    if not table_exists(conn, "question_readings"):
        return {}
    rows = read_partition(conn, "question_readings", {"corpus": corpus, "config": config})
    return {(r["question_id"], r["kind"]): asked_line(r) for r in records(rows)}


def load_review(
    conn,
    corpus: str,
    config: str,
    answer_set: str | None = None,
    grader: str | None = None,
    delta_from: str | None = None,
    seed: int = 0,
    audit_size: int = 20,
) -> Review:
    grades, version = _grades(conn, corpus, config, grader)
    ranked = _stored_leaderboard(conn, corpus, config, version) or leaderboard(
        dict(tuple(grades.groupby("answer_set", sort=True)))
    )
    answers = read_partition(conn, "answers", {"corpus": corpus, "config": config})
    if answer_set is not None:
        if answer_set not in set(grades["answer_set"]):
            raise ReviewError(
                f"answer set {answer_set!r} not in {corpus}/{config}; "
                f"it has: {', '.join(sorted(set(grades['answer_set'])))}"
            )
        grades, answers = grades[grades["answer_set"] == answer_set], answers[answers["answer_set"] == answer_set]
    question_rows = read_partition(conn, "questions", {"corpus": corpus})
    questions = {q["question_id"]: q for q in records(question_rows)}  # rows as dicts: one lookup each, not .loc
    attribution = _attributions(conn, corpus, config)
    asked = _asked(conn, corpus, config)
    by_answer = {a["answer_id"]: a for a in records(answers)}
    cited = {chunk for a in by_answer.values() for chunk in _listed(a["cited_chunks"])}
    chunks = _cited_pages(conn, corpus, config, list(cited))
    rows = []
    for g in records(grades.sort_values(["answer_set", "question_id"])):
        a = by_answer.get(g["answer_id"])
        q = questions[g["question_id"]]
        text = "" if a is None or a["answer"] is None else str(a["answer"])
        citations = _listed(None if a is None else a["citations"])
        stale = "answer_sha" in g and a is not None and g["answer_sha"] != answer_sha(a["answer"], a["citations"])
        cited_pages = [chunks[c] for c in _listed(None if a is None else a["cited_chunks"]) if c in chunks]
        rows.append(
            {
                **{
                    k: g[k]
                    for k in (
                        "answer_set",
                        "question_id",
                        "answer_id",
                        "kind",
                        "verdict",
                        "rule",
                        "matched",
                        "money_question",
                    )
                },
                "declined": bool(g["declined"]),
                **_trusted(g),
                "failure": None if pd.isna(g["failure"]) else g["failure"],
                **_judged(g),
                "wrong_money": _listed(g["wrong_money"]),
                "error": None if pd.isna(g["error"]) else g["error"],
                "question": q["text"],
                "gold_answer": q["gold_answer"],
                "money_key": None if pd.isna(q["money_key"]) else q["money_key"],
                "question_type": q["question_type"],
                "golden": _golden(q["golden_docs"], q["golden_pages"]),
                "answer": text,
                "citations": citations,
                "cited_pages": cited_pages,
                "stale": bool(stale),
                "latency_ms": None if a is None or pd.isna(a["latency_ms"]) else float(a["latency_ms"]),
                "label": None if a is None or pd.isna(a["label"]) else a["label"],
                "attribution": attribution.get((g["answer_set"], g["question_id"])),
                "asked": asked.get((g["question_id"], g["kind"]), ""),
            }
        )
    needles: dict[str, list[dict]] = {}
    for n in records(read_partition(conn, "needles", {"corpus": corpus})):
        needles.setdefault(n["question_id"], []).append(
            {k: n.get(k) for k in ("needle", "kind", "status", "reason", "doc_id", "page", "label")}
        )
    cards = _scorecards(conn, corpus, config, version, answer_set)
    slices = _stored(conn, "scorecard_slices", corpus, config, version, answer_set)
    if slices.empty:  # stored for the current grades only
        slices = slice_rows(grades, question_rows)
    labelled = [r for r in rows if r["label"] in HUMAN_CLASSES]
    confusion = None
    if labelled:
        human = [r["label"] for r in labelled]
        confusion = confusion_matrix(human, [grader_class(r["verdict"], r["declined"]) for r in labelled])
    versions = grader_versions(conn, corpus, config)
    flips = []
    latest = latest_flips(conn, corpus, config) if delta_from is None and grader is None else None
    if latest is not None:  # the current grades: what their grading changed, as `ragpipe delta` says
        delta_from = latest[0]
        flips = [f for f in latest[1] if answer_set is None or f["answer_set"] == answer_set]
    elif delta_from is None and version in versions and versions.index(version) > 0:
        delta_from = versions[versions.index(version) - 1]
    if delta_from and latest is None:
        old = verdicts_at(conn, delta_from, corpus, config)
        if answer_set is not None:
            old = old[old["answer_set"] == answer_set]
        flips = grade_delta(old, grades)["flips"] if len(old) else []
    passed = sorted(r["answer_id"] for r in rows if r["verdict"] == Verdict.CORRECT)
    sample = random.Random(seed).sample(passed, min(audit_size, len(passed)))
    return Review(
        corpus=corpus,
        config=config,
        answer_set=answer_set,
        grader_version=version,
        rows=rows,
        needles=needles,
        scorecards=cards,
        pairs=_pair_counts(conn, version),
        latencies=[r["latency_ms"] for r in rows if r["latency_ms"] is not None],
        confusion=confusion,
        delta_from=delta_from,
        flips=flips,
        audit_sample=sample,
        seed=seed,
        versions=versions,
        leaderboard=ranked if len(ranked) > 1 else [],
        slices=records(slices),
    )


def _pair_counts(conn, version: str) -> pd.DataFrame:
    """Correct/partial/wrong per (corpus, config, answer set) graded at `version`, for the overview plot."""
    in_grades = conn.execute("SELECT count(*) FROM grades WHERE grader_version = ?", [version]).fetchall()[0][0]
    source, order = (
        ("grades", "answer_id") if in_grades else ("grade_history", "graded_at DESC, answer_sha")
    )  # the latest verdict
    return conn.execute(
        f"SELECT corpus, config, answer_set, count(*) FILTER (verdict = 'correct') AS correct, "
        f"count(*) FILTER (verdict = 'partial') AS partial, count(*) FILTER (verdict = 'wrong') AS wrong "
        f"FROM (SELECT DISTINCT ON (answer_id) * FROM {source} WHERE grader_version = ? ORDER BY answer_id, {order}) "
        "WHERE answer_set NOT LIKE 'labeled:%' GROUP BY ALL ORDER BY corpus, config, answer_set",
        [version],
    ).df()


def _trusted(grade) -> dict:
    """Firm or tentative, the verdict's confidence and what moved it (docs/trust.md); None on rows graded
    before confidence was measured."""
    confidence = grade.get("confidence")
    known = confidence is not None and not pd.isna(confidence)
    why = grade.get("confidence_why")
    return {
        "firm": bool(grade.get("firm")),
        "confidence": float(confidence) if known else None,
        "confidence_why": why if known and isinstance(why, str) and why else None,
    }


def _judged(grade) -> dict:
    """What a model judge said of the answer and what the rules had said (docs/judge.md); None without one."""
    out = {}
    for key in ("judge_verdict", "judge_reason", "rules_verdict", "rules_rule"):
        value = grade.get(key) if hasattr(grade, "get") else None
        out[key] = None if value is None or pd.isna(value) else value
    return out
