"""Needles from the gold answer alone, for questions that come without documents.

`ragpipe grade`, `ragpipe agreement` on a labels file and `ragpipe.evaluate`
have questions and answers but no PDFs: the gold answer is then the gold
text, and needles are mined from it exactly as from a filing's pages (figures
by value, names, distinctive words; never from the question). One function,
so the same question line is graded the same way by each of them.
"""

from __future__ import annotations

import pandas as pd

from ragpipe.corpus.needle_mining import mine_needles
from ragpipe.corpus.questions import Question


def gold_doc(question_id: str) -> str:
    """The one-page document a question's gold answer stands in for."""
    return f"gold:{question_id}"


def gold_text_pages(corpus: str, questions: list[Question]) -> pd.DataFrame:
    """One page per question: its gold answer."""
    return pd.DataFrame(
        [[corpus, gold_doc(q.id), 1, q.gold_answer, len(q.gold_answer)] for q in questions],
        columns=["corpus", "doc_id", "page", "text", "chars"],
    )


def gold_text_needles(corpus: str, questions: list[Question]) -> pd.DataFrame:
    """The needles table mined from each question's gold answer as its only golden page (the questions
    themselves are left as given: their golden documents still judge an answer's citations)."""
    as_gold = [q.model_copy(update={"golden_docs": [gold_doc(q.id)], "golden_pages": {}}) for q in questions]
    return mine_needles(corpus, as_gold, gold_text_pages(corpus, questions))


def corpus_needles(corpus: str, questions: list[Question], pages: pd.DataFrame) -> pd.DataFrame:
    """The needles stage's table: mined against the golden pages, or, for a corpus that holds no page at all
    (a question file whose systems' answers are files: `ragpipe corpus new`), from each gold answer alone,
    as `ragpipe grade` mines them, so one question is graded alike in a corpus and out of one."""
    return mine_needles(corpus, questions, pages) if len(pages) else gold_text_needles(corpus, questions)
