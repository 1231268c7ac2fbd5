"""Every failure kind and rule id a grade stores is one of `ragpipe.grading.outcomes`' constants, so
scorecards, the money bar and a reader's SQL can compare against them."""

import duckdb

from ragpipe.grading import outcomes


def _constants(prefix_filter) -> set[str]:
    return {v for k, v in vars(outcomes).items() if k.isupper() and isinstance(v, str) and prefix_filter(v)}


def test_stored_failures_and_rules_are_the_constants(demo_warehouse_once):
    with duckdb.connect(str(demo_warehouse_once / "ragpipe.duckdb"), read_only=True) as conn:
        rows = conn.execute("SELECT DISTINCT failure, rule FROM grades").fetchall()
    failures = _constants(lambda v: " " in v)
    rules = _constants(lambda v: "." in v and " " not in v) | {
        outcomes.needles_rule(s, f) for s in ("authored", "mined") for f in ("all", "some", "none")
    }
    assert len(rows) > 3
    for failure, rule in rows:
        assert failure is None or failure in failures, failure
        bare = rule.removeprefix(outcomes.AMBIGUOUS_PREFIX) if rule != outcomes.AMBIGUOUS_DECLINED else rule
        assert bare in rules, rule
    assert any(rule.startswith("needles.") for _, rule in rows)  # the demo's verdicts include needle counts
