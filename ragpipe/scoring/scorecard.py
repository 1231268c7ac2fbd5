"""Scorecards: what a grades table says, in the numbers people compare.

Everything here is derived from the grades and answers tables, so a test can
recompute any number from them and expect the same. `overall_pct` is correct
over *graded* answers and the corpus's questions the set left unanswered (they
count against it): an ungradable question (no needle to grade by) is counted
apart, never silently scored.
"""

from __future__ import annotations

import statistics

import pandas as pd

from ragpipe.answering.retrieving import answered_from_pair_retrieval
from ragpipe.grading.grade import Verdict
from ragpipe.grading.outcomes import WRONG_MONEY
from ragpipe.history.ledger import latest_event
from ragpipe.labels.store import people_labels
from ragpipe.retrieval.scoring import summary
from ragpipe.scoring.attribution import attribute, attribution_counts
from ragpipe.scoring.money_bar import people_labelled
from ragpipe.scoring.trust_line import trust_columns
from ragpipe.warehouse.tables import read_partition, table_exists

SCORECARD_COLUMNS = [
    "corpus",
    "config",
    "answer_set",
    "grader_version",
    "total",
    "graded",
    "correct",
    "partial",
    "wrong",
    "overall_pct",
    "labels",
    "people_pct",
    "people_low",
    "people_high",
    "labels_only_low",
    "labels_only_high",
    "answerable_total",
    "answerable_correct",
    "answerable_pct",
    "negatives_total",
    "negatives_declined",
    "ambiguous_total",
    "ambiguous_correct",
    "ungradable",
    "errors",
    "median_latency_ms",
    "total_latency_s",
    "usage_reported",
    "prompt_tokens",
    "completion_tokens",
    "wrong_money",
    "money_bar",
    "blocked",
    "documents",
    "documents_failed",
    "question_problems",
    "retrieval_questions",
    "doc_recall_at_k",
    "doc_mrr",
    "doc_ndcg_10",
    "page_hit_at_k",
    "retrieval_miss",
    "generation_miss",
    "declined_with_evidence",
    "declined_without_evidence",
    "grading_event",
    "judged_as",
    "judge_decided",
    "judge_unjudged",
    "judge_tokens",
    "judge_cost",
    "judge_overturned",
    "unanswered",
]
RETRIEVAL_FIELDS = SCORECARD_COLUMNS[
    SCORECARD_COLUMNS.index("retrieval_questions") : SCORECARD_COLUMNS.index("grading_event")
]
CALIBRATED = ["people_pct", "people_low", "people_high", "labels_only_low", "labels_only_high"]


def _pct(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 0.0


def build_scorecard(
    grades: pd.DataFrame,
    answers: pd.DataFrame,
    documents: int,
    documents_failed: int,
    question_problems: int = 0,
    unanswered: int = 0,
) -> dict:
    """One scorecard for one (corpus, configuration, answer set) at one grader version; `unanswered`: the
    corpus's questions the set has no answer to, counted against it in `overall_pct`."""
    if grades.empty:
        raise ValueError("no grades to score")
    first = grades.iloc[0]
    kind = grades["kind"]
    correct = grades["verdict"] == Verdict.CORRECT
    answerable = kind == "answerable"
    negatives = kind == "negative"
    ambiguous = kind == "ambiguous"
    latencies = answers.loc[answers["error"].isna(), "latency_ms"].dropna()
    graded = len(grades) - int(grades["ungradable"].sum())
    wrong_money = int((grades["failure"] == WRONG_MONEY).sum())
    return {
        "corpus": first["corpus"],
        "config": first["config"],
        "answer_set": first["answer_set"],
        "grader_version": first["grader_version"],
        "total": len(grades),
        "graded": graded,
        "correct": int(correct.sum()),
        "partial": int((grades["verdict"] == Verdict.PARTIAL).sum()),
        "wrong": int((grades["verdict"] == Verdict.WRONG).sum()),
        "overall_pct": _pct(int(correct.sum()), graded + unanswered),
        "unanswered": unanswered,
        **dict.fromkeys(CALIBRATED, None),
        "labels": 0,
        "answerable_total": int(answerable.sum()),
        "answerable_correct": int((answerable & correct).sum()),
        "answerable_pct": _pct(int((answerable & correct).sum()), int(answerable.sum())),
        "negatives_total": int(negatives.sum()),
        "negatives_declined": int((negatives & grades["declined"]).sum()),
        "ambiguous_total": int(ambiguous.sum()),
        "ambiguous_correct": int((ambiguous & correct).sum()),
        "ungradable": int(grades["ungradable"].sum()),
        "errors": int(grades["error"].notna().sum()),
        "median_latency_ms": round(float(statistics.median(latencies)), 3) if len(latencies) else None,
        "total_latency_s": round(float(latencies.sum()) / 1000, 3) if len(latencies) else None,
        **usage_totals(answers),
        "wrong_money": wrong_money,
        "money_bar": "PASS" if wrong_money == 0 else "FAIL",
        "blocked": wrong_money > 0 and not people_labelled(answers),  # this set alone; see money_bar.py
        "documents": documents,
        "documents_failed": documents_failed,
        "question_problems": question_problems,
        "grading_event": None,  # which grading of the pair these numbers come from (set from the ledger)
        "judged_as": _judged_as(answers),
    }


def usage_totals(answers: pd.DataFrame) -> dict:
    """Tokens the endpoint reported, summed over the answers that report them (`usage_reported` says how
    many): None where no answer reported any, never 0, which would read as free."""
    columns = ("prompt_tokens", "completion_tokens")
    if not all(c in answers for c in columns):
        return {"usage_reported": 0, **dict.fromkeys(columns)}
    reported = answers[list(columns)].notna().any(axis=1)
    sums = {c: int(answers.loc[reported, c].fillna(0).sum()) if reported.any() else None for c in columns}
    return {"usage_reported": int(reported.sum()), **sums}


def _judged_as(answers: pd.DataFrame) -> str:
    """`question kind`, or `gold answer` for a set whose answers are graded as answerable whatever the
    question's kind (labelled imports: people judged them against the gold answer), so two sets of one
    pair may count answerable, negative and ambiguous questions differently, and the scorecard says why."""
    graded_as = answers["graded_as"] if "graded_as" in answers else pd.Series(dtype=object)
    return "gold answer" if graded_as.notna().any() else "question kind"


def pair_retrieval(conn, corpus: str, config: str) -> pd.DataFrame:
    """The pair's per-question retrieval scores (empty where the `retrieval` asset has not run)."""
    if not table_exists(conn, "retrieval"):
        return pd.DataFrame(columns=["question_id", "evidence_in_top_k"])
    return read_partition(conn, "retrieval", {"corpus": corpus, "config": config})


def scorecards_for_pair(conn, corpus: str, config: str) -> tuple[list[dict], pd.DataFrame]:
    """Scorecards of every answer set of one (corpus, configuration), and the failure attribution they
    count, from the warehouse tables."""
    keys = {"corpus": corpus, "config": config}
    grade_rows = read_partition(conn, "grades", keys)
    answer_rows = read_partition(conn, "answers", keys)
    failed = len(read_partition(conn, "failed_documents", {"corpus": corpus}))
    documents = len(read_partition(conn, "documents", {"corpus": corpus})) + failed  # every PDF, readable or not
    problems = len(read_partition(conn, "question_problems", {"corpus": corpus}))
    asked = set(read_partition(conn, "questions", {"corpus": corpus})["question_id"])
    retrieval = pair_retrieval(conn, corpus, config)
    attributed = attribute(grade_rows, answer_rows, retrieval)
    top_k = int(retrieval["top_k"].iloc[0]) if "top_k" in retrieval and len(retrieval) else 0
    means = summary(retrieval, top_k) if len(retrieval) else {}
    event = latest_event(conn, corpus, config)
    people = people_labels(conn, corpus, config, answer_rows)
    bound = _trust_section()
    cards = []
    for card in scorecards_for(grade_rows, answer_rows, documents, failed, problems, asked):
        mine = grade_rows[grade_rows["answer_set"] == card["answer_set"]]
        card.update(calibrated_columns(mine, people))
        card.update(trust_columns(mine, people, bound.alpha, bound.delta))
        engines = answer_rows.loc[answer_rows["answer_set"] == card["answer_set"], "engine"]
        retrieved = bool(means) and answered_from_pair_retrieval(engines)
        mine = attributed[attributed["answer_set"] == card["answer_set"]]
        card.update({name: means.get(name) if retrieved else None for name in RETRIEVAL_FIELDS[:5]})
        card.update(attribution_counts(mine) if retrieved else dict.fromkeys(RETRIEVAL_FIELDS[5:]))
        cards.append({**card, "grading_event": event, **judge_spend(conn, grade_rows, card["answer_set"])})
    return cards, attributed


def _trust_section():
    """The bound firmness promises, as the loaded rules state it (rules.yaml `trust:`)."""
    from ragpipe.grading.rules import load_rules
    from ragpipe.warehouse.settings import rules_path

    return load_rules(rules_path()).trust


def judge_spend(conn, grades: pd.DataFrame, answer_set: str) -> dict:
    """What the model judge did for one answer set: the answers it decided, the tentative ones it left
    unjudged (an endpoint down, a cap reached), and the tokens and cost of its judgments (each counted
    once, however many answers share it). None where the set was graded without a judge."""
    none = {
        "judge_decided": None,
        "judge_unjudged": None,
        "judge_tokens": None,
        "judge_cost": None,
        "judge_overturned": None,
    }
    mine = grades[grades["answer_set"] == answer_set]
    # g-...+j-...(+k-...: what it keeps): the judge's id is the second part
    judge_id = (str(mine["grader_version"].iloc[0]).split("+") + [""])[1] if len(mine) else ""
    if not judge_id or "judge_key" not in mine:
        return none
    keyed = mine[mine["judge_key"].notna()]
    decided = int((keyed["judge_verdict"] != "unparsed").sum())
    unjudged = int((mine["judge_key"].isna() & ~mine["firm"].astype(bool) & mine["error"].isna()).sum())
    # overturned: decided otherwise than the rules had (a judge that agrees decides, and moves nothing)
    overturned = int(((keyed["judge_verdict"] != "unparsed") & (keyed["verdict"] != keyed["rules_verdict"])).sum())
    out = {**none, "judge_decided": decided, "judge_unjudged": unjudged, "judge_overturned": overturned}
    if keyed.empty or not table_exists(conn, "judgments"):
        return out
    spent = conn.execute(
        "SELECT sum(coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0)), sum(cost) FROM judgments "
        "WHERE judge_id = ? AND list_contains(?, input_key)",
        [judge_id, sorted(set(keyed["judge_key"]))],
    ).fetchall()[0]
    return {**out, "judge_tokens": int(spent[0] or 0), "judge_cost": spent[1]}


def calibrated_columns(grades: pd.DataFrame, people: pd.Series) -> dict:
    """People's accuracy on one answer set (percent), estimated from the labelled answers among `grades`
    and the grader's verdict on all of them (scoring/calibration.py); None where nobody labelled."""
    known = set(people.index)  # a set, not isin: pandas converts `people` to Arrow scalars one by one per call
    labelled = grades[[answer_id in known for answer_id in grades["answer_id"]]]
    if labelled.empty:
        return {**dict.fromkeys(CALIBRATED, None), "labels": 0}
    from ragpipe.scoring.calibration import calibrate, people_correct

    human = people_correct(people.loc[labelled["answer_id"]], labelled["kind"])
    graded = (labelled["verdict"] == Verdict.CORRECT).to_numpy(dtype=int)
    c = calibrate(human, graded, (grades["verdict"] == Verdict.CORRECT).to_numpy(dtype=int))
    shown = (c.estimate, c.low, c.high, c.labels_only_low, c.labels_only_high)
    return {"labels": c.labels, **{k: round(100 * v, 1) for k, v in zip(CALIBRATED, shown)}}


def people_text(card: dict) -> str:
    """`83.1 [76.0, 90.2] (50 labels)`: people's accuracy estimated, its 95% interval, what it rests on; `37.3
    (exact: every answer labelled, 150 labels)` when nothing is estimated."""
    if not card.get("labels"):
        return "-"
    if _every_answer_labelled(card):
        return f"{card['people_pct']} (exact: every answer labelled, {card['labels']} labels)"
    return f"{card['people_pct']} [{card['people_low']}, {card['people_high']}] ({card['labels']} labels)"


def people_short(card: dict) -> str:
    """`83.1 [76.0, 90.2] n=50`: people's accuracy, its 95% interval and the labels it rests on, for a narrow
    table (an interval shown without its n reads as firmer than 3 labels make it); `37.3 exact, all 150
    labelled` when every answer is labelled (an interval of one point would read as a rounding)."""
    if not card.get("labels"):
        return "-"
    if _every_answer_labelled(card):
        return f"{card['people_pct']} exact, all {card['labels']} labelled"
    return f"{card['people_pct']} [{card['people_low']}, {card['people_high']}] n={card['labels']}"


def _every_answer_labelled(card: dict) -> bool:
    return bool(card.get("total")) and card["labels"] >= card["total"]


def stale_scorecards(conn, cards: list[dict]) -> list[str]:
    """A warning for each pair whose scorecards were computed before its latest grading."""
    warnings = []
    for corpus, config in sorted({(c["corpus"], c["config"]) for c in cards}):
        event = latest_event(conn, corpus, config)
        seen = {c["grading_event"] for c in cards if (c["corpus"], c["config"]) == (corpus, config)}
        if event is not None and seen != {event}:
            warnings.append(
                f"{corpus}/{config}: scorecards are older than its grades (computed from grading "
                f"{', '.join('#' + str(s) for s in sorted(seen, key=str))}; latest grading is #{event}): "
                "re-materialize scorecards, or run `ragpipe regrade`"
            )
    return warnings


def scorecards_for(
    grades: pd.DataFrame,
    answers: pd.DataFrame,
    documents: int,
    documents_failed: int,
    question_problems: int = 0,
    asked: set[str] | None = None,
) -> list[dict]:
    """One scorecard per answer set in `grades` (documents counts every PDF, readable or not; `asked`: the
    corpus's question ids, each one a set has no answer to counted against it)."""
    return [
        build_scorecard(
            g,
            answers[answers["answer_set"] == s],
            documents,
            documents_failed,
            question_problems,
            len(asked - set(g["question_id"])) if asked is not None else 0,
        )
        for s, g in grades.groupby("answer_set", sort=True)
    ]


def money_bar_text(card: dict) -> str:
    """`PASS (0)`, `FAIL (2) blocked`, or `FAIL (2) exempt` for a set people labelled."""
    text = f"{card['money_bar']} ({card['wrong_money']})"
    blocked = card.get("blocked")  # absent from scorecards stored before the bar was per set: said as it was
    if card["money_bar"] == "FAIL" and blocked is not None:
        text += " blocked" if blocked else " exempt"
    return text


def money_bar_summary(cards: list[dict]) -> str:
    """`PASS`, or `FAIL: a, b` naming the answer sets that failed the bar."""
    failed = [c["answer_set"] for c in cards if c["money_bar"] == "FAIL"]
    return "PASS" if not failed else "FAIL: " + ", ".join(failed)


def _labels_only(card: dict) -> str:
    return "-" if not card.get("labels") else f"[{card['labels_only_low']}, {card['labels_only_high']}]"


def scorecard_markdown(card: dict) -> str:
    """The scorecard as a small markdown table (Dagster metadata, README)."""
    lines = [
        f"**{card['corpus']} / {card['config']}** ({card['answer_set']}, grader {card['grader_version']})",
        "",
        "| measure | value |",
        "|---|---|",
        f"| overall | {card['overall_pct']}% ({card['correct']} of {card['graded']} graded"
        + (f", {card['unanswered']} unanswered counted against it" if card.get("unanswered") else "")
        + ") |",
        f"| people's accuracy, estimated (95% interval, labels) | {people_text(card)} |",
        f"| ... from the labels alone | {_labels_only(card)} |",
        f"| firm (nobody need look again, docs/trust.md) | {card.get('trust') or '-'} |",
        f"| ungradable (no needle to grade by) | {card['ungradable']} |",
        f"| correct / partial / wrong | {card['correct']} / {card['partial']} / {card['wrong']} |",
        f"| answerable correct | {card['answerable_correct']} of {card['answerable_total']} "
        f"({card['answerable_pct']}%) |",
        f"| honesty (negatives declined) | {card['negatives_declined']} of {card['negatives_total']} |",
        f"| ambiguous correct | {card['ambiguous_correct']} of {card['ambiguous_total']} |",
        f"| median latency (total) | {card['median_latency_ms']} ms ({card.get('total_latency_s')} s) |",
        f"| tokens, prompt / completion (answers reporting them) | {card.get('prompt_tokens')} / "
        f"{card.get('completion_tokens')} ({card.get('usage_reported', 0)}) |",
        f"| ZERO-WRONG-MONEY | {money_bar_text(card)} |",
        f"| documents (failed) | {card['documents']} ({card['documents_failed']}) |",
        f"| question rows refused | {card['question_problems']} |",
        f"| judged by | the {card.get('judged_as') or 'question kind'} |",
        f"| misses, retrieval / generation (answerable questions with golden documents only) | "
        f"{card.get('retrieval_miss')} / {card.get('generation_miss')} |",
    ]
    if card.get("judge_decided") is not None:
        lines.append(
            f"| model judge: answers it decided (overturned), tentative ones left unjudged, tokens, cost | "
            f"{card['judge_decided']} ({card.get('judge_overturned')}), {card.get('judge_unjudged')}, "
            f"{card.get('judge_tokens')}, {card.get('judge_cost')} |"
        )
    return "\n".join(lines)
