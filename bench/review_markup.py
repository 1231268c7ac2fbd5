"""Review markup benchmark: is marking up an answer linear in its length?

An answer of N repeated sentences, each with a money key, a wrong figure and a
mention in the source's voice ("the lease says ..."), is graded (untimed: the
marks are the grade's, `grades.matched`) and marked up for the review report
at three lengths up to the longest answer a row stores (`MAX_ANSWER_CHARS`,
100,000 characters: 0.025, 0.05 and 0.1 MB; a quarter of that with --quick).
Linear markup doubles its time when the answer doubles (ratio 2); the old
per-cut scan of every span quadrupled it (ratio 4: 1.4 / 5.0 / 22 s at 0.24 /
0.48 / 0.96 MB before issue 23). Each length is marked up once untimed, then
timed three times after a collection: the ratios are of the medians.

The lengths were 0.12, 0.24 and 0.48 MB until 2026-12-05,
longer than any stored answer. There the markup's own cost stays flat (14 to 20
µs a sentence from 30 KB to 960 KB with the cyclic collector paused), but with the
collector on, its passes over the growing heap raise it from 17 µs a sentence at
120 KB to 42 at 480 KB: the ratios read 3.7 and 10.8 once timed with medians
(single timings had read 1.79 and 4.96, or 0.49 for twice the length with
--quick). That is the collector, past what a row can hold, not the markup.

    python bench/review_markup.py [--quick] [--json]
"""

from __future__ import annotations

import gc
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import main, timed  # noqa: E402

from ragpipe.answering.answer_row import MAX_ANSWER_CHARS  # noqa: E402
from ragpipe.corpus.questions import Question  # noqa: E402
from ragpipe.grading.grader import grade  # noqa: E402
from ragpipe.grading.rules import load_rules  # noqa: E402
from ragpipe.review.annotate import annotate  # noqa: E402

REPEATS = 3  # timings of each length; the ratios take their medians
SENTENCE = "Rent was $2,150 and the deposit $500 (the lease says $2,150). "


def run(quick: bool) -> dict:
    rules = load_rules()
    unbounded = rules.model_copy(update={"answers": rules.answers.model_copy(update={"max_chars": 10**9})})
    question = Question(id="q", text="What is the monthly rent?", kind="answerable", money_key="$2,150")
    base = (MAX_ANSWER_CHARS // 4 if not quick else MAX_ANSWER_CHARS // 16) // len(SENTENCE)
    result: dict = {}
    seconds = []
    for factor in (1, 2, 4):
        answer = SENTENCE * (base * factor)
        matched = grade(question, answer, [], unbounded).columns()["matched"]
        annotate(answer, matched)  # untimed: the first markup of a size warms what the timed ones reuse
        timings = []
        for _ in range(REPEATS):  # one timing of a tenth of a second is at the mercy of the machine
            gc.collect()
            with timed() as watch:
                runs = annotate(answer, matched)
            timings.append(watch.seconds)
        assert "".join(r.text for r in runs) == answer
        seconds.append(statistics.median(timings))
        result[f"seconds_{len(answer) / 1e3:.0f}_KB"] = seconds[-1]
    result["ratio_2x_length"] = seconds[1] / seconds[0]
    result["ratio_4x_length"] = seconds[2] / seconds[0]
    return result


if __name__ == "__main__":
    main(run, "review markup", __doc__.splitlines()[0], "a quarter of the lengths")
