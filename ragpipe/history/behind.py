"""Pairs another grader graded: what a rules or grading-code change (or a candidate rules file) left to regrade.

Dagster's own staleness shows this only per partition, deep in the asset's page; this is the same
fact as one finding per table (grades, scorecards), which the Dagster layer turns into an asset check
that warns on the lineage graph (assets/grading/behind.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import duckdb

from ragpipe.warehouse.tables import read_partition, table_exists


@dataclass(frozen=True)
class Behind:
    """The verdict on one table: which (corpus, configuration) pairs hold rows of another grader."""

    table: str
    current: str
    pairs: int  # pairs the table holds
    behind: list[dict] = field(default_factory=list)  # {"pair": "demo/default", "corpus", "config", "graded_by"}
    via: str | None = None  # a table made from another's rows (the review report from the grades): behind with it

    @property
    def passed(self) -> bool:
        return not self.behind

    def description(self) -> str:
        if self.passed:
            made = f"are made from {self.via} by" if self.via else "are by"
            return f"every pair's {self.table} {made} the current grader {self.current}"
        named = ", ".join(f"{b['pair']} ({', '.join(b['graded_by'])}{_loaded(self, b)})" for b in self.behind[:5])
        more = f" and {len(self.behind) - 5} more" if len(self.behind) > 5 else ""
        made = f"are made from {self.via} by" if self.via else "are by"
        return (
            f"{len(self.behind)} of {self.pairs} pairs' {self.table} {made} another grader than the one loaded "
            f"({self.current}): {named}{more}. `ragpipe regrade` (or materialize rule_verdicts: the rest follows) "
            "grades them with the loaded one."
        )

    def metadata(self) -> dict:
        return {
            "current_grader": self.current,
            "pairs": self.pairs,
            "pairs_behind": len(self.behind),
            "behind": [f"{b['pair']} {' '.join(b['graded_by'])}" for b in self.behind],
        }

    def per_pair(self) -> list[tuple[str, str, str, dict]]:
        """(corpus, config, description, metadata) for each pair behind: what its partition says where a
        user selects it, beside the stored grader_version, which alone does not say it is old."""
        return [
            (
                b["corpus"],
                b["config"],
                f"{self.table} of {b['pair']} by another grader ({', '.join(b['graded_by'])}) than the one loaded "
                f"({b['loaded']})",
                {
                    "graded_by": ", ".join(b["graded_by"]),
                    "current_grader": b["loaded"],
                    "to_regrade": "ragpipe regrade, or Materialize this partition's rule_verdicts (the rest follows)",
                },
            )
            for b in self.behind
        ]


def _loaded(finding: Behind, entry: dict) -> str:
    """ ", loaded: g-...+j-..." when the pair's own grader is not the finding's (its configuration names a judge)."""
    return f"; loaded: {entry['loaded']}" if entry["loaded"] != finding.current else ""


def behind(
    conn: duckdb.DuckDBPyConnection, table: str, current: str, graders: Mapping[tuple[str, str], str] | None = None
) -> Behind:
    """Which pairs' rows in `table` (grades or scorecards, both carry `grader_version`) were made by a grader
    other than the loaded one: `graders`' for a pair it names (a pair whose configuration names a judge),
    else `current`."""
    if not table_exists(conn, table):
        return Behind(table, current, 0)
    rows = conn.execute(
        f'SELECT corpus, config, list(DISTINCT grader_version ORDER BY grader_version) FROM "{table}" '
        "GROUP BY corpus, config ORDER BY corpus, config"
    ).fetchall()
    graders = graders or {}
    late = [
        {"pair": f"{c}/{k}", "corpus": c, "config": k, "graded_by": list(v), "loaded": graders.get((c, k), current)}
        for c, k, v in rows
        if list(v) != [graders.get((c, k), current)]
    ]
    return Behind(table, current, len(rows), late)


def stale_rule_verdicts(verdicts, answers, rules_version: str) -> str | None:
    """Why a pair's stored rule verdicts (None: none stored) cannot stand for the loaded rules over its stored
    answers, or None when they can: the one test the grades asset (which refuses then) and `ragpipe judge
    export` (which grades in memory then) share."""
    if verdicts is None:
        return "no rule verdicts are stored"
    if len(verdicts) and set(verdicts["grader_version"]) != {rules_version}:
        graded_by = ", ".join(sorted(set(verdicts["grader_version"])))
        return f"the stored rule verdicts are by other rules ({graded_by}) than the loaded ones ({rules_version})"
    if set(verdicts["answer_id"]) != set(answers["answer_id"]):
        return "the stored rule verdicts are of other answers than the stored ones"
    return None


def graded_on_other_inputs(conn: duckdb.DuckDBPyConnection, corpus: str, config: str) -> int:
    """How many of the pair's grades were made on other inputs than it holds now (each grade's `input_sha`
    against the one its answer, question and needles give now): a question's gold or key edited and read
    again since, with this pair not regraded. Whatever the grader, such grades stand for questions that no
    longer are."""
    from ragpipe.grading.grade_table import input_shas

    keys = {"corpus": corpus, "config": config}
    if not all(table_exists(conn, t) for t in ("grades", "answers", "questions", "needles")):
        return 0
    grades = read_partition(conn, "grades", keys)
    if grades.empty:
        return 0
    answers = read_partition(conn, "answers", keys)
    answers = answers[answers["answer_id"].isin(set(grades["answer_id"]))]
    questions = read_partition(conn, "questions", {"corpus": corpus})
    held = set(questions["question_id"])
    answers, gone = answers[answers["question_id"].isin(held)], int((~answers["question_id"].isin(held)).sum())
    now = input_shas(answers, questions, read_partition(conn, "needles", {"corpus": corpus}))
    return gone + sum(now.get(a) != sha for a, sha in zip(grades["answer_id"], grades["input_sha"]) if a in now)
