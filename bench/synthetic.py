"""A synthetic answer history, generated from real questions and real answers.

Each answer is built from a question's gold answer, its kept needles or the
real model answers stored beside it, in one of the shapes answers take in the
wild: the gold answer restated, a figure in a sentence, a wrong figure, a
decline, a hedge after an answer, reasoning aloud, a real model answer. A
seeded random source varies page numbers, openers and figures, so most texts
are unique (the benchmark reports the share) and the same seed gives the same
history.
"""

from __future__ import annotations

import random
import re

import pandas as pd

from ragpipe.answering.answer_row import AnswerRecord
from ragpipe.answering.run import answer_id

OPENERS = [
    "",
    "Based on the provided context, ",
    "According to the filing, ",
    "Per the document, ",
    "From page {page}: ",
]
DECLINES = [
    "The document does not provide this information.",
    "I cannot determine {topic} from the provided context.",
    "There is no information about {topic} in the excerpts on page {page}.",
    "I'm sorry, but the filing does not state {topic}.",
    "Unable to answer: the context does not include {topic}.",
]
HEDGES = [
    " However, the filing does not break this down further.",
    " Note that page {page} reports it on a different basis.",
    "",
]
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _wrong(text: str, rng: random.Random) -> str:
    """The same text with its first figure moved by 7 to 40 per cent: a plausible wrong answer."""
    match = _NUMBER.search(text)
    if not match:
        return text + f" The amount was ${rng.randint(10, 9999):,} million."
    value = float(match.group(0).replace(",", "")) * rng.choice([1.07, 0.9, 1.25, 0.6, 1.4])
    figure = f"{value:,.2f}" if "." in match.group(0) else f"{round(value):,}"
    return text[: match.start()] + figure + text[match.end() :]


def synthetic_answers(
    questions: pd.DataFrame, needles: pd.DataFrame, real: pd.DataFrame, n: int, seed: int = 7
) -> pd.DataFrame:
    """`n` stored-looking answers (answer_set `synthetic-<k>`), spread over `questions`."""
    rng = random.Random(seed)
    kept = needles[needles["status"] == "kept"].groupby("question_id")["needle"].apply(list).to_dict()
    real_by_q = real.groupby("question_id")["answer"].apply(list).to_dict() if len(real) else {}
    qs = questions.sort_values("question_id").to_dict("records")
    rows = []
    for i in range(n):
        q = qs[i % len(qs)]
        gold = str(q["gold_answer"] or "")
        page, topic = rng.randint(1, 180), " ".join(str(q["text"]).split()[:6]).rstrip("?").lower()
        opener = rng.choice(OPENERS).format(page=page)
        shape = rng.randrange(7)
        if shape == 0:
            text = opener + gold
        elif shape == 1 and kept.get(q["question_id"]):
            text = f"{opener}the figure reported on page {page} is {rng.choice(kept[q['question_id']])}."
        elif shape == 2:
            text = opener + _wrong(gold, rng)
        elif shape == 3:
            text = rng.choice(DECLINES).format(topic=topic, page=page)
        elif shape == 4:
            text = opener + gold + rng.choice(HEDGES).format(page=page)
        elif shape == 5:
            text = f"To answer, we look at page {page} and compute the figure step by step. {gold} That is the answer."
        else:
            text = rng.choice(real_by_q.get(q["question_id"], [gold]))
        if rng.random() < 0.6:  # most real answers point somewhere
            text += rng.choice(
                [" (see page {page})", " [source: page {page}]", " Source: the filing, p. {page}."]
            ).format(page=rng.randint(1, 400))
        answer_set = f"synthetic-{i // len(qs)}"
        rows.append(
            AnswerRecord(
                corpus=q["corpus"],
                config="bench",
                answer_set=answer_set,
                question_id=q["question_id"],
                answer_id=answer_id(q["corpus"], "bench", answer_set, q["question_id"]),
                answer=text,
                latency_ms=0.0,
                engine="synthetic",
            )
        )
    return AnswerRecord.frame(rows)
