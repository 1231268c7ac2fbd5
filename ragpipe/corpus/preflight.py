"""Refuse a corpus whose questions do not load clean, before anything is written for it.

A bad question file is not half-loaded: the run stops with every problem listed
(file, line, field), and the warehouse keeps whatever it held for the corpus
before, untouched, until the file is fixed. (The manifest itself is checked
when it is loaded: see manifest.py.)
"""

from __future__ import annotations

from pathlib import Path

from ragpipe.corpus.adapters import read_corpus_questions
from ragpipe.corpus.ingest import doc_id_for, pdf_files
from ragpipe.corpus.manifest import CorpusManifest
from ragpipe.inputs.problems import Problem


class CorpusRefused(ValueError):
    """The corpus's inputs have problems; nothing was written for it."""

    def __init__(self, corpus: str, problems: list[Problem]):
        self.problems = problems
        listed = "\n".join(f"  {p}" for p in problems[:50])
        more = f"\n  ... and {len(problems) - 50} more" if len(problems) > 50 else ""
        super().__init__(
            f"corpus {corpus!r} refused, nothing written for it: {len(problems)} problem(s)\n{listed}{more}"
        )


def check_corpus(manifest: CorpusManifest, pdf_folder: Path) -> None:
    """Raise CorpusRefused unless every question loads and names documents the folder has."""
    documents = {doc_id_for(p, pdf_folder) for p in pdf_files(pdf_folder)} if pdf_folder.is_dir() else set()
    loaded = read_corpus_questions(manifest, documents)
    problems = loaded.problems
    if not problems and not loaded.questions:  # an empty file: the run would ask nothing and fail in its steps
        where = str(manifest.resolve(manifest.questions)) if manifest.questions else f"corpus {manifest.name}"
        problems = [Problem(where, 1, "(file)", "holds no question: a run needs at least one")]
    if problems:
        raise CorpusRefused(manifest.name, problems)
