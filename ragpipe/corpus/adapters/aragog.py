"""ARAGOG: questions over arXiv papers, with document-level qrels.

A question is `answerable` when its golden paper is in the corpus (gold text
= that paper); otherwise (GLM-130B, absent upstream) it is `negative`.
Upstream gold answers are sometimes wrong or vague, which is why needles are
kept only when the golden paper contains them.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from ragpipe.corpus.ingest import doc_id_for
from ragpipe.corpus.manifest import CorpusManifest
from ragpipe.corpus.questions import LoadedQuestions, Question, validation_problems
from ragpipe.inputs.json_file import read_json_object
from ragpipe.inputs.problems import Problem

REQUIRED = ("benchmark.json", "qrels.json", "pdfs/")  # checked before a run starts (adapters.missing_data)


def pdf_folder(manifest: CorpusManifest, data: Path) -> Path:
    return data / "pdfs"


def read_questions(manifest: CorpusManifest, folder: Path, documents: set[str]) -> LoadedQuestions:
    problems: list[Problem] = []
    bench = read_json_object(folder / "benchmark.json", problems)
    qrels = read_json_object(folder / "qrels.json", problems)
    if bench is None or qrels is None:
        return LoadedQuestions([], problems)
    texts, truths = bench.get("questions", []), bench.get("ground_truths", [])
    if len(texts) != len(truths):
        problems.append(
            Problem(
                str(folder / "benchmark.json"), 0, "ground_truths", f"{len(truths)} answers for {len(texts)} questions"
            )
        )
    questions = []
    for i, (text, truth) in enumerate(zip(texts, truths)):
        rel = qrels.get(str(i))
        if not isinstance(rel, dict) or not isinstance(rel.get("golden_pdf"), str):
            problems.append(
                Problem(str(folder / "qrels.json"), 0, f"{i}.golden_pdf", "no golden paper for this question")
            )
            continue
        doc = doc_id_for(Path(rel["golden_pdf"]))
        answerable = doc in documents and rel.get("golden_pdf_in_corpus", True)
        try:
            questions.append(
                Question(
                    id=f"aragog-{i:03d}",
                    text=text,
                    kind="answerable" if answerable else "negative",
                    question_type=doc,
                    gold_answer=truth,
                    golden_docs=[doc] if answerable else [],
                )
            )
        except ValidationError as err:
            problems.extend(validation_problems(err, str(folder / "benchmark.json"), 0))
    return LoadedQuestions(questions, problems)
