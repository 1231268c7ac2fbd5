"""Vectara's Open RAG Benchmark (arXiv papers), drawn into a corpus the way it is meant to be used.

The layout its pipeline writes (vectara/open-rag-bench, `convert_processed_to_dataset.py`), with the
papers' PDFs beside it:

    queries.json          {query_id: {"query", "type", "source"}}
    answers.json          {query_id: answer}
    qrels.json            {query_id: {"doc_id", "section_id"}}
    corpus/<doc_id>.json  {"title", "sections": [{"text", ...}, ...]}
    pdfs/<doc_id>.pdf     the paper (arXiv: https://arxiv.org/pdf/<doc_id>)

From thousands of questions over hundreds of papers the manifest's `sample` draws, seeded: N golden
papers (with a PDF and at least one question), up to `per_paper` of each one's questions asked as
answerable; M distractor papers, in the corpus but asked about by no question; and K negative
questions, about papers left out of the corpus, where declining is correct. The corpus folder holds
links to the N + M PDFs only (under the warehouse; the data is never copied).

Qrels are kept at two levels: the golden paper (`golden_docs`, scored by the retrieval measures) and
the golden section (the question's evidence passage, its text from corpus/<doc_id>.json). Needles are
mined from the gold answer and kept only where the golden section's text holds them and the question
does not (corpus/needle_mining.py: a passage without pages is the finest gold text there is).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from ragpipe.corpus.adapters.contained import contained
from ragpipe.corpus.manifest import CorpusManifest, Sample
from ragpipe.corpus.questions import Evidence, LoadedQuestions, Question, validation_problems
from ragpipe.inputs.json_file import read_json_object
from ragpipe.inputs.problems import Problem

REQUIRED = ("queries.json", "answers.json", "qrels.json", "pdfs/")  # checked before a run (adapters.missing_data)


@dataclass(frozen=True)
class Drawn:
    """What one seed draws: papers in the corpus and the questions asked."""

    golden: list[str]
    distractors: list[str]
    answerable: list[str]  # query ids about golden papers
    negatives: list[str]  # query ids about papers left out


def _load(data: Path, relative: str, problems: list[Problem]) -> dict:
    """The object of data/`relative`, or {} with a problem said (its questions are then missing, and
    named); DataOutside if the file is a link out of the data folder."""
    path = data / relative
    if path.exists() or path.is_symlink():
        contained(data, path)
    return read_json_object(path, problems) or {}


def _papers_with_pdf(data: Path) -> dict[str, Path]:
    """doc id -> its PDF under data/pdfs: `<doc_id>.pdf` files only (a file named `.pdf` names no paper)."""
    folder = data / "pdfs"
    if not folder.is_dir():
        return {}
    found = {p.name[: -len(".pdf")]: p for p in folder.iterdir() if p.suffix == ".pdf" and p.is_file()}
    return dict(sorted(found.items()))


def draw(qrels: dict, papers: list[str], sample: Sample) -> Drawn:
    """The seeded draw: golden papers among those with a PDF and a question, distractors among the other
    papers with a PDF, negatives among the questions whose paper is in neither."""
    rng = random.Random(sample.seed)
    asked: dict[str, list[str]] = {}
    for qid in sorted(qrels):
        doc = qrels[qid].get("doc_id") if isinstance(qrels[qid], dict) else None
        if isinstance(doc, str):
            asked.setdefault(doc, []).append(qid)
    pool = [p for p in papers if p in asked]
    golden = sorted(rng.sample(pool, min(sample.golden, len(pool))))
    rest = [p for p in papers if p not in golden]
    distractors = sorted(rng.sample(rest, min(sample.distractors, len(rest))))
    answerable = []
    for doc in golden:
        qids = asked[doc]
        take = len(qids) if sample.per_paper is None else min(sample.per_paper, len(qids))
        answerable += sorted(rng.sample(qids, take))
    inside = set(golden) | set(distractors)
    outside = [q for doc, qids in sorted(asked.items()) if doc not in inside for q in qids]
    negatives = sorted(rng.sample(outside, min(sample.negatives, len(outside))))
    return Drawn(golden, distractors, answerable, negatives)


def _drawn(manifest: CorpusManifest, data: Path, problems: list[Problem]) -> tuple[Drawn, dict]:
    qrels = _load(data, "qrels.json", problems)
    return draw(qrels, list(_papers_with_pdf(data)), manifest.sample or Sample()), qrels


def pdf_folder(manifest: CorpusManifest, data: Path, warehouse: Path) -> Path:
    """`<warehouse>/corpora/<name>`: a link to each drawn paper's PDF, and nothing else (a link left
    from another draw is removed)."""
    drawn, _ = _drawn(manifest, data, [])
    papers = _papers_with_pdf(data)
    folder = warehouse / "corpora" / manifest.name
    folder.mkdir(parents=True, exist_ok=True)
    wanted = {f"{doc}.pdf": contained(data, papers[doc]) for doc in drawn.golden + drawn.distractors}
    for existing in folder.iterdir():
        if existing.name not in wanted or not existing.is_symlink() or existing.resolve() != wanted[existing.name]:
            existing.unlink()
    for name, target in wanted.items():
        if not (folder / name).is_symlink():  # exists() follows the link: a dangling one wedged the folder
            os.symlink(target, folder / name)
    return folder


def _section_text(data: Path, doc: str, section: object, cache: dict) -> str | None:
    if doc not in cache:
        cache[doc] = _load(data, f"corpus/{doc}.json", [])
    sections = cache[doc].get("sections")
    if not isinstance(sections, list) or not isinstance(section, int) or not 0 <= section < len(sections):
        return None
    text = sections[section].get("text") if isinstance(sections[section], dict) else None
    return text if isinstance(text, str) and text.strip() else None


def read_questions(manifest: CorpusManifest, folder: Path, documents: set[str]) -> LoadedQuestions:
    problems: list[Problem] = []
    drawn, qrels = _drawn(manifest, folder, problems)
    queries = _load(folder, "queries.json", problems)
    answers = _load(folder, "answers.json", problems)
    sections: dict = {}
    questions = []
    for qid in drawn.answerable + drawn.negatives:
        query, rel = queries.get(qid), qrels[qid]
        if not isinstance(query, dict) or not isinstance(query.get("query"), str):
            problems.append(Problem(str(folder / "queries.json"), 0, f"{qid}.query", "no query text"))
            continue
        doc, answerable = rel["doc_id"], qid in drawn.answerable and rel["doc_id"] in documents
        section = _section_text(folder, doc, rel.get("section_id"), sections) if answerable else None
        if answerable and section is None:
            where = str(folder / "corpus" / f"{doc}.json")
            problems.append(Problem(where, 0, f"sections.{rel.get('section_id')}", f"no text for question {qid}"))
            continue
        gold = answers.get(qid)
        try:
            questions.append(
                Question(
                    id=qid,
                    text=query["query"],
                    kind="answerable" if answerable else "negative",
                    question_type=query.get("type") if isinstance(query.get("type"), str) else None,
                    gold_answer=gold if answerable and isinstance(gold, str) else "",
                    golden_docs=[doc] if answerable else [],
                    evidence=[Evidence(doc_id=doc, text=section)] if answerable else [],
                )
            )
        except ValidationError as err:
            problems.extend(validation_problems(err, str(folder / "queries.json"), 0))
    return LoadedQuestions(questions, problems)
