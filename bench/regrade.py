"""Regrade benchmark: grading throughput, and a regrade-only run against a full one.

1. A scratch warehouse gets a full materialization of the FinanceBench default
   pair (demo with --quick): ingest, questions, needles, chunks, index,
   answers, grades, scorecards. Then a regrade-only materialization (grades,
   scorecards, agreement, delta) of the same pair, three times: the ratio is
   the full run's time over the median regrade's. All timed in the same run.
2. One long answer ("I could not find it. " repeated 10,000 and 20,000
   times) graded with no length bound: the ratio says whether grading is
   linear (2) or quadratic (4) in the answer's length; and three money
   answers of 10,000 and 20,000 characters (measures bound, corrections,
   denials: `money_*_ratio`), the money readings' own ratios.
3. A synthetic history of 100,000 stored answers (10,000 with --quick) built
   from that warehouse's real questions, needles and labelled model answers
   (`bench/synthetic.py`) is graded by the library, in one process and in two
   processes (shards by question-id hash, as the multiprocess job cuts them).
4. The same history, step by step: the steps every answer needs (reading the row, the decline
   phrases, the opening's stance, the figures), each timed alone, their sum (the floor) beside the
   whole grade and the target's budget of 50 µs an answer (`bench/grading_floor.py`).
5. `ragpipe regrade` over 3 pairs and over 6 (the demo under its configurations and a copy of each),
   side by side (`bench/regrade_pairs.py`): a regrade costs by answers, not by pairs.

    python bench/regrade.py [--quick] [--json]
"""

from __future__ import annotations

import gc
import statistics
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import duckdb
from dagster import DagsterInstance

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import financebench_folder, main, timed  # noqa: E402
from grading_floor import floor  # noqa: E402
from regrade_pairs import run as pairs_ratio  # noqa: E402
from synthetic import synthetic_answers  # noqa: E402

from assets.runs.runner import regrade_in_one_run, run_corpus  # noqa: E402
from assets.shared.resources import resources_for  # noqa: E402
from ragpipe.answering.shards import split  # noqa: E402
from ragpipe.cli.long_lived import set_aside_imports  # noqa: E402
from ragpipe.grading.grade_table import grade_answers  # noqa: E402
from ragpipe.grading.rules import load_rules  # noqa: E402
from ragpipe.warehouse.settings import corpora_dir  # noqa: E402
from ragpipe.warehouse.tables import read_partition  # noqa: E402

REGRADES = 3  # regrade-only runs timed after the full one; the ratio takes their median


def _grade(args) -> int:
    answers, questions, needles = args
    return len(grade_answers(answers, questions, needles, load_rules()))


def _time_long_answer(repeats: int) -> float:
    """Seconds to grade "I could not find it. " x `repeats` with no length bound (linear, or not?)."""
    from ragpipe.corpus.questions import Question
    from ragpipe.grading.grader import grade

    rules = load_rules()
    unbounded = rules.model_copy(update={"answers": rules.answers.model_copy(update={"max_chars": 10**9})})
    question = Question(id="q", text="What is the pet deposit?", kind="negative")
    gc.collect()  # the collector's debt from the history graded before is not this answer's time
    with timed() as t:
        grade(question, "I could not find it. " * repeats, [], unbounded)
    return t.seconds


MONEY_UNITS = {  # money answers whose figures every money reading binds, denies or corrects: linear, or not?
    "money_measures": "$1 million of operating income of the segment, ",
    "money_corrections": "The fee is $12, sorry, $13, ",
    "money_denials": "They do not owe $4; ",
}


def _time_long_money(unit: str, chars: int) -> float:
    """Seconds to grade `unit` repeated to `chars` characters on a money question (the money readings)."""
    from ragpipe.corpus.questions import Question
    from ragpipe.grading.grader import grade

    rules = load_rules()
    question = Question(
        id="q",
        text="What was the operating income?",
        kind="answerable",
        gold_answer="$5 million",
        money_key="$5 million",
    )
    answer = (unit * (chars // len(unit) + 1))[:chars]
    gc.collect()
    with timed() as t:
        grade(question, answer, [], rules)
    return t.seconds


def run(quick: bool) -> dict:
    corpus = "demo" if quick else "financebench"
    if not quick:
        financebench_folder()  # Skipped, with the reason, when the data is absent
    set_aside_imports()  # as the `ragpipe` command does before it runs anything (bench/collector.py)
    with tempfile.TemporaryDirectory(prefix="bench-regrade-") as tmp:
        folder = Path(tmp)
        instance = DagsterInstance.ephemeral()
        with timed() as full_t:
            results = run_corpus(corpus, ["default"], instance=instance, resources=resources_for(folder, corpora_dir()))
        assert all(r.success for r in results), "full materialization failed"
        regrades = []
        for _ in range(REGRADES):  # one regrade of two seconds is at the mercy of the machine's other work
            with timed() as regrade_t:
                assert regrade_in_one_run(
                    [(corpus, "default")], instance=instance, resources=resources_for(folder, corpora_dir())
                ).success
            regrades.append(regrade_t.seconds)
        with duckdb.connect(str(folder / "ragpipe.duckdb"), read_only=True) as conn:
            questions = read_partition(conn, "questions", {"corpus": corpus})
            needles = read_partition(conn, "needles", {"corpus": corpus})
            real = read_partition(conn, "answers", {"corpus": corpus, "config": "default"})
    history = synthetic_answers(questions, needles, real, 10_000 if quick else 100_000)
    with timed() as one_t:
        graded = _grade((history, questions, needles))
    shards = [(part, questions, needles) for part in split(history, 2)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        list(
            pool.map(_grade, [(part.head(1), questions, needles) for part, _, _ in shards])
        )  # workers up before timing
        with timed() as two_t:
            graded_two = sum(pool.map(_grade, shards))
    assert graded == graded_two == len(history)
    steps = floor(history, questions, load_rules(), one_t.seconds)
    unique = history[["question_id", "answer"]].drop_duplicates()
    _time_long_answer(100)  # untimed: the first grading with the unbounded rules compiles their patterns
    long_s = {n: _time_long_answer(n) for n in (10_000, 20_000)}
    return {
        **pairs_ratio(quick),
        "long_answer_10k_s": round(long_s[10_000], 3),
        "long_answer_20k_s": round(long_s[20_000], 3),
        "long_answer_ratio": round(long_s[20_000] / long_s[10_000], 2),  # 2 = linear, 4 = quadratic
        **{
            f"{name}_ratio": round(_time_long_money(unit, 20_000) / _time_long_money(unit, 10_000), 2)
            for name, unit in MONEY_UNITS.items()
        },  # 10,000 and 20,000 characters: 2 = linear
        "answers_per_s": round(len(history) / one_t.seconds),
        "answers_per_s_two_processes": round(len(history) / two_t.seconds),
        "answers": len(history),
        "unique_answer_share": round(len(unique) / len(history), 3),
        "regrade_vs_full_speedup": round(full_t.seconds / statistics.median(regrades), 1),
        "full_s": round(full_t.seconds, 1),
        "regrade_s": round(statistics.median(regrades), 2),  # the median of the three
        "regrades_s": [round(r, 2) for r in regrades],
        "corpus": corpus,
        **steps,
    }


if __name__ == "__main__":
    main(
        run,
        "regrade: grading throughput and regrade-only vs full",
        __doc__.splitlines()[0],
        "demo corpus and 10,000 answers; under a minute",
    )
