"""A user's own corpus: a folder of PDFs and a YAML or JSONL question file."""

from __future__ import annotations

from pathlib import Path

from ragpipe.corpus.adapters.demo import read_questions_file
from ragpipe.corpus.manifest import CorpusManifest
from ragpipe.corpus.questions import LoadedQuestions


def pdf_folder(manifest: CorpusManifest, data: Path) -> Path:
    return data


def read_questions(manifest: CorpusManifest, folder: Path, documents: set[str]) -> LoadedQuestions:
    return read_questions_file(manifest, documents)
