"""A corpus from its manifest: where its PDFs are (generated, for the demo)
and its validated questions."""

from __future__ import annotations

from pathlib import Path

from ragpipe.demo_pdfs import write_demo_corpus
from ragpipe.manifest import CorpusManifest
from ragpipe.questions import Question, check_documents, load_questions


def pdf_folder(manifest: CorpusManifest, warehouse: Path) -> Path:
    """The corpus's PDF folder. The demo's PDFs are generated data, so they are
    written (idempotently) under the warehouse: `<warehouse>/corpora/<name>`."""
    if manifest.adapter == "demo":
        if not manifest.source:
            raise ValueError(f"{manifest.manifest_path}: field source: the demo adapter needs a documents file")
        folder = warehouse / "corpora" / manifest.name
        write_demo_corpus(manifest.resolve(manifest.source), folder)
        return folder
    return manifest.pdf_dir


def corpus_questions(manifest: CorpusManifest, known_docs: set[str]) -> list[Question]:
    """Questions, refused whole if any names a document the corpus lacks."""
    path = manifest.questions_path
    questions = load_questions(path)
    check_documents(questions, known_docs, path)
    return questions
