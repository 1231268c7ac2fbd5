"""The project's own corpus: PDFs rendered from authored YAML, questions in YAML."""

from __future__ import annotations

from pathlib import Path

from ragpipe.corpus.demo_pdfs import write_demo_corpus
from ragpipe.corpus.manifest import CorpusManifest
from ragpipe.corpus.questions import LoadedQuestions
from ragpipe.corpus.questions import read_questions as read_question_file


def pdf_folder(manifest: CorpusManifest, warehouse: Path) -> Path:
    """The demo PDFs are generated data: written (idempotently) to `<warehouse>/corpora/<name>`."""
    if not manifest.source:
        raise ValueError(f"{manifest.manifest_path}: field source: the demo adapter needs a documents file")
    folder = warehouse / "corpora" / manifest.name
    write_demo_corpus(manifest.resolve(manifest.source), folder)
    return folder


def read_questions_file(manifest: CorpusManifest, documents: set[str]) -> LoadedQuestions:
    if not manifest.questions:
        raise ValueError(f"{manifest.manifest_path}: field questions: required for adapter {manifest.adapter!r}")
    return read_question_file(manifest.resolve(manifest.questions), documents)


def read_questions(manifest: CorpusManifest, folder: Path, documents: set[str]) -> LoadedQuestions:
    return read_questions_file(manifest, documents)
