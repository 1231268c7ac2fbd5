"""Mine needles (figures a correct answer must carry) from gold answers.

A candidate is kept only when the golden text contains it (compared by value,
so `$1,577.00` meets `1,577`) and the question does not (a needle the question
already states proves nothing about the answer). Every candidate is a row,
kept or rejected, with the reason and where in the gold text it was found.
"""

from __future__ import annotations

import pandas as pd

from ragpipe.figures import Figure, find_figures
from ragpipe.questions import Question

NEEDLE_COLUMNS = ["corpus", "question_id", "needle", "kind", "value", "status", "reason", "doc_id", "page", "char_offset"]


def _kind(fig: Figure) -> str:
    return "money" if fig.is_money else "percent" if fig.is_percent else "number"


def _find(fig: Figure, text: str) -> int | None:
    for other in find_figures(text):
        if fig.matches(other) or (fig.is_percent == other.is_percent and other.value == fig.value):
            return other.start
    return None


def gold_pages(question: Question, pages: pd.DataFrame) -> pd.DataFrame:
    """The gold text: golden pages where known, else the golden documents' pages."""
    docs = pages[pages["doc_id"].isin(question.golden_docs)]
    if question.golden_pages:
        wanted = {(d, p) for d, ps in question.golden_pages.items() for p in ps}
        mask = [(d, p) in wanted for d, p in zip(docs["doc_id"], docs["page"])]
        return docs[mask]
    return docs


def mine_question(corpus: str, question: Question, pages: pd.DataFrame) -> list[list]:
    rows: list[list] = []
    gold = gold_pages(question, pages)
    seen: set[tuple[str, str]] = set()
    for fig in find_figures(question.gold_answer):
        key = (_kind(fig), str(fig.value))
        if key in seen:
            continue
        seen.add(key)
        base = [corpus, question.id, fig.text, _kind(fig), str(fig.value)]
        if _find(fig, question.text) is not None:
            rows.append(base + ["rejected", "present in question", None, None, None])
            continue
        where = None
        for doc_id, page, text in zip(gold["doc_id"], gold["page"], gold["text"]):
            offset = _find(fig, text)
            if offset is not None:
                where = (doc_id, int(page), offset)
                break
        if where is None:
            rows.append(base + ["rejected", "absent from gold text", None, None, None])
        else:
            rows.append(base + ["kept", "found in gold text", *where])
    return rows


def mine_needles(corpus: str, questions: list[Question], pages: pd.DataFrame) -> pd.DataFrame:
    rows = [row for q in questions for row in mine_question(corpus, q, pages)]
    frame = pd.DataFrame(rows, columns=NEEDLE_COLUMNS)
    return frame.astype({"page": "Int64", "char_offset": "Int64"})
