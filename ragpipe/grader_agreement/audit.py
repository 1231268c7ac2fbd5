"""Audit a proposed decline phrase before adding it: where would it collide?

A decline phrase that also occurs in authored needles, money keys, gold
answers or answers graded correct today would turn real answers into
declines. The audit lists every such place and the delta the change would
cause, so a person decides with the collisions in front of them.
"""

from __future__ import annotations

import duckdb

from ragpipe.grading.rules import Rules, RulesError
from ragpipe.history.whatif import whatif
from ragpipe.text.clashes import exclusion_clashes
from ragpipe.text.matching import find_phrase
from ragpipe.warehouse.nulls import records
from ragpipe.warehouse.tables import table_exists


def with_declines(rules: Rules, phrases: list[str]) -> tuple[Rules, list[dict]]:
    """`rules` plus `phrases` as declines; an exclusion a phrase names exactly is overridden and
    reported. A phrase that contains or overlaps an exclusion is refused (RulesError)."""
    if any(not p.strip() for p in phrases):
        raise RulesError("a proposed decline phrase is blank: it would match every answer")
    lowered = {p.lower() for p in phrases}
    clashes = exclusion_clashes(phrases, [e.phrase for e in rules.declines.exclusions])
    if clashes:
        raise RulesError("; ".join(f"proposed decline {p!r} {how} exclusion {e!r}: refused" for p, how, e in clashes))
    overridden = [
        {"phrase": e.phrase, "reason": e.reason} for e in rules.declines.exclusions if e.phrase.lower() in lowered
    ]
    declines = rules.declines.model_copy(
        update={
            "phrases": rules.declines.phrases
            + [p for p in phrases if p.lower() not in {x.lower() for x in rules.declines.phrases}],
            "exclusions": [e for e in rules.declines.exclusions if e.phrase.lower() not in lowered],
        }
    )
    candidate = rules.model_copy(update={"declines": declines})
    return candidate.model_copy(update={"version": f"{rules.version}+audit"}), overridden


def collisions(conn: duckdb.DuckDBPyConnection, phrases: list[str]) -> list[dict]:
    out = []
    questions = (
        conn.execute("SELECT * FROM questions ORDER BY corpus, question_id").df()
        if table_exists(conn, "questions")
        else None
    )
    if questions is not None:
        for q in records(questions):
            fields = [("must_contain", n) for n in q["must_contain"]] + [
                ("must_contain_any", n) for n in q["must_contain_any"]
            ]
            fields += [("must_not_contain", n) for n in q["must_not_contain"]]
            fields += [("money_key", q["money_key"])] if isinstance(q["money_key"], str) else []
            # a negative question's gold answer is itself a decline: a phrase that reads it so is right
            fields += [("gold_answer", q["gold_answer"])] if q["kind"] != "negative" else []
            for field, text in fields:
                for phrase in phrases:
                    if find_phrase(phrase, text):
                        out.append(
                            {
                                "phrase": phrase,
                                "where": field,
                                "corpus": q["corpus"],
                                "question_id": q["question_id"],
                                "text": text,
                            }
                        )
    if table_exists(conn, "grades"):
        correct = conn.execute(
            "SELECT g.corpus, g.config, g.answer_set, g.question_id, a.answer "
            "FROM grades g JOIN answers a USING (answer_id) "
            "WHERE g.verdict = 'correct' AND NOT g.declined ORDER BY ALL"  # a right decline is no collision
        ).df()
        for r in records(correct):
            for phrase in phrases:
                if find_phrase(phrase, r["answer"] or ""):
                    out.append(
                        {
                            "phrase": phrase,
                            "where": "answer graded correct",
                            "corpus": r["corpus"],
                            "config": r["config"],
                            "answer_set": r["answer_set"],
                            "question_id": r["question_id"],
                            "text": r["answer"],
                        }
                    )
    return out


def audit(conn: duckdb.DuckDBPyConnection, rules: Rules, phrases: list[str]) -> dict:
    candidate, overridden = with_declines(rules, phrases)
    found = collisions(conn, phrases)
    return {
        "phrases": phrases,
        "overrides_exclusions": overridden,
        "collisions": found,
        "collision_count": len(found),
        "delta": whatif(conn, candidate),
    }
