"""Review markup benchmark: is marking up an answer linear in its length?

An answer of N repeated sentences, each with a money key, a wrong figure and a
mention in the source's voice ("the lease says ..."), is graded (untimed: the
marks are the grade's, `grades.matched`) and marked up for the review report
at three lengths (0.12, 0.24 and 0.48 MB; a quarter of that with
--quick). Linear markup doubles its time when the answer doubles (ratio 2);
the old per-cut scan of every span quadrupled it (ratio 4: 1.4 / 5.0 / 22 s at
0.24 / 0.48 / 0.96 MB before issue 23).

    python bench/review_markup.py [--quick] [--json]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import main, timed  # noqa: E402

from ragpipe.corpus.questions import Question  # noqa: E402
from ragpipe.grading.grader import grade  # noqa: E402
from ragpipe.grading.rules import load_rules  # noqa: E402
from ragpipe.review.annotate import annotate  # noqa: E402

SENTENCE = "Rent was $2,150 and the deposit $500 (the lease says $2,150). "


def run(quick: bool) -> dict:
    rules = load_rules()
    unbounded = rules.model_copy(update={"answers": rules.answers.model_copy(update={"max_chars": 10**9})})
    question = Question(id="q", text="What is the monthly rent?", kind="answerable", money_key="$2,150")
    base = (120_000 if not quick else 30_000) // len(SENTENCE)
    result: dict = {}
    seconds = []
    for factor in (1, 2, 4):
        answer = SENTENCE * (base * factor)
        matched = grade(question, answer, [], unbounded).columns()["matched"]
        with timed() as watch:
            runs = annotate(answer, matched)
        assert "".join(r.text for r in runs) == answer
        seconds.append(watch.seconds)
        result[f"seconds_{len(answer) / 1e6:.2f}_MB"] = watch.seconds
    result["ratio_2x_length"] = seconds[1] / seconds[0]
    result["ratio_4x_length"] = seconds[2] / seconds[0]
    return result


if __name__ == "__main__":
    main(run, "review markup", __doc__.splitlines()[0], "a quarter of the lengths")
