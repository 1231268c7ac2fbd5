"""Retrieval scored against each corpus's golden documents and pages (its qrels), with ir_measures.

The run is what the pair's BM25 index ranks for each question: its chunks,
read as documents (a document ranks at its best chunk) and as pages (a page
at the best chunk that spans it). The measures are ir_measures' (pytrec_eval
underneath), not ours: golden-document recall@k and reciprocal rank,
nDCG@10 over documents, golden-page hit@k (Success). k is the pair's top_k,
the chunks an engine is handed. Questions without golden documents
(negatives) have no qrels and are not scored; a scored question the run
ranks nothing for scores 0. TREC files of the run and the qrels let anyone
check the numbers with other tools (`trec_eval`, ranx).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import ir_measures
import pandas as pd
from ir_measures import RR, R, Success, nDCG

from ragpipe.corpus.questions import Question

if TYPE_CHECKING:  # annotations only: the index (bm25s, scipy) is loaded by what builds one
    from ragpipe.retrieval.index import ChunkIndex

DEPTH = 100  # chunks ranked per question: deep enough for nDCG@10 over documents
RUN_COLUMNS = ["corpus", "config", "question_id", "rank", "chunk_id", "doc_id", "page_start", "page_end", "score"]


def rank_chunks(index: ChunkIndex, chunks: pd.DataFrame, questions: list[Question], corpus: str, config: str):
    """The run: the top DEPTH chunks of each question, with their document and page span."""
    spans = chunks.set_index("chunk_id")[["doc_id", "page_start", "page_end"]]
    rows = []
    for q in questions:
        for hit in index.search(q.text, DEPTH):
            doc_id, p0, p1 = spans.loc[hit.chunk_id]
            rows.append([corpus, config, q.id, hit.rank, hit.chunk_id, doc_id, int(p0), int(p1), float(hit.score)])
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def page_id(doc_id: str, page: int) -> str:
    return f"{doc_id}#p{page}"


def qrels(questions: list[Question]) -> tuple[list, list]:
    """(document qrels, page qrels) of the questions that name golden documents (pages: where named)."""
    docs, pages = [], []
    for q in questions:
        docs += [ir_measures.Qrel(q.id, d, 1) for d in q.golden_docs]
        pages += [ir_measures.Qrel(q.id, page_id(d, p), 1) for d, ps in q.golden_pages.items() for p in ps]
    return docs, pages


def _best(run: pd.DataFrame, key: pd.Series) -> list:
    """ScoredDocs: each (question, key) at its best chunk's score."""
    best = run.assign(key=key).groupby(["question_id", "key"], sort=True)["score"].max()
    return [ir_measures.ScoredDoc(q, k, s) for (q, k), s in best.items()]


def doc_run(run: pd.DataFrame) -> list:
    return _best(run, run["doc_id"])


def page_run(run: pd.DataFrame) -> list:
    """Each page a chunk spans, at that chunk's score (a page's best)."""
    spread = run.loc[run.index.repeat(run["page_end"] - run["page_start"] + 1)].copy()
    spread["page"] = spread["page_start"] + spread.groupby(level=0).cumcount()
    return _best(spread, spread["doc_id"] + "#p" + spread["page"].astype(str))


def measures(top_k: int) -> dict[str, tuple]:
    """Scorecard name -> (qrels level, ir_measures measure)."""
    return {
        "doc_recall_at_k": ("docs", R @ top_k),
        "doc_mrr": ("docs", RR),
        "doc_ndcg_10": ("docs", nDCG @ 10),
        "page_hit_at_k": ("pages", Success @ top_k),
    }


def score_run(run: pd.DataFrame, questions: list[Question], top_k: int) -> pd.DataFrame:
    """One row per question with qrels: each measure (0 where the run ranks nothing relevant or nothing at
    all), plus `evidence_in_top_k`: a golden page (or, without pages, a golden document) is among the
    top_k chunks an engine is handed."""
    doc_qrels, page_qrels = qrels(questions)
    runs = {"docs": doc_run(run), "pages": page_run(run)}
    judged = {"docs": doc_qrels, "pages": page_qrels}
    scored = sorted({q.query_id for q in doc_qrels})
    frame = pd.DataFrame({"question_id": scored})
    for name, (level, measure) in measures(top_k).items():
        values = {m.query_id: m.value for m in ir_measures.iter_calc([measure], judged[level], runs[level])}
        has_qrels = {q.query_id for q in judged[level]}
        frame[name] = pd.Series([values.get(q, 0.0) if q in has_qrels else None for q in scored], dtype="float64")
    frame["evidence_in_top_k"] = [_evidence_retrieved(run, q, top_k) for q in _by_id(questions, scored)]
    return frame


def _by_id(questions: list[Question], ids: list[str]) -> list[Question]:
    by_id = {q.id: q for q in questions}
    return [by_id[i] for i in ids]


def _evidence_retrieved(run: pd.DataFrame, question: Question, top_k: int) -> bool:
    top = run[(run["question_id"] == question.id) & (run["rank"] <= top_k)]
    for doc_id, p0, p1 in zip(top["doc_id"], top["page_start"], top["page_end"]):
        if question.golden_pages:
            if any(p0 <= p <= p1 for p in question.golden_pages.get(doc_id, [])):
                return True
        elif doc_id in question.golden_docs:
            return True
    return False


def summary(per_question: pd.DataFrame, top_k: int) -> dict:
    """Means over the questions each measure scores, and how many those are."""
    out: dict = {"retrieval_questions": len(per_question), "top_k": top_k}
    for name in measures(top_k):
        values = per_question[name].dropna() if name in per_question else pd.Series(dtype=float)
        out[name] = round(float(values.mean()), 4) if len(values) else None
    return out


def write_trec(folder: Path, run: pd.DataFrame, questions: list[Question], name: str) -> dict[str, Path]:
    """TREC run files (documents and pages) and the qrels beside them."""
    folder.mkdir(parents=True, exist_ok=True)
    doc_qrels, page_qrels = qrels(questions)
    paths = {
        "run_docs": folder / "run-docs.trec",
        "run_pages": folder / "run-pages.trec",
        "qrels_docs": folder / "qrels-docs.trec",
        "qrels_pages": folder / "qrels-pages.trec",
    }
    for key, scored in (("run_docs", doc_run(run)), ("run_pages", page_run(run))):
        paths[key].write_text("".join(_run_lines(scored, name)))
    for key, judged in (("qrels_docs", doc_qrels), ("qrels_pages", page_qrels)):
        paths[key].write_text("".join(f"{q.query_id} 0 {q.doc_id} {q.relevance}\n" for q in judged))
    return paths


def _run_lines(scored: list, name: str) -> list[str]:
    """`qid Q0 docid rank score name`, ranks by descending score (ties by id, for a stable file)."""
    lines: list[Any] = []
    by_query: dict[Any, Any] = {}
    for s in scored:
        by_query.setdefault(s.query_id, []).append(s)
    for qid in sorted(by_query):
        ranked = sorted(by_query[qid], key=lambda s: (-s.score, s.doc_id))
        lines += [f"{qid} Q0 {s.doc_id} {i} {s.score:.6f} {name}\n" for i, s in enumerate(ranked, 1)]
    return lines
