"""Corpus adapters: where a corpus's PDFs are and how its questions are read.

Each adapter turns one upstream layout into the same two things: a folder of
PDFs and a list of validated questions (plus a problem per bad row). Pick an
adapter by name in the corpus manifest.
"""

from __future__ import annotations

from pathlib import Path

from ragpipe.corpus.adapters import aragog, demo, financebench, folder, openragbench
from ragpipe.corpus.manifest import CorpusManifest
from ragpipe.corpus.questions import LoadedQuestions

ADAPTERS = {
    "demo": demo,
    "folder": folder,
    "financebench": financebench,
    "aragog": aragog,
    "openragbench": openragbench,
}


class DataMissing(FileNotFoundError):
    """The corpus's data folder is absent (e.g. no ../shared on a fresh clone)."""


def missing_data(manifest: CorpusManifest) -> str | None:
    """One line saying what is missing, where it was looked for and where to get it; None if present."""
    folder = manifest.data_path
    if manifest.adapter == "demo" or folder.is_dir():
        return None
    hint = f"set {manifest.data_dir_env} or pass --data-dir" if manifest.data_dir_env else "pass --data-dir"
    get = f"; get it from {manifest.upstream} (docs/corpora.md)" if manifest.upstream else " (docs/corpora.md)"
    return f"corpus {manifest.name!r}: its data folder {folder} does not exist ({hint}){get}"


def data_dir(manifest: CorpusManifest) -> Path:
    missing = missing_data(manifest)
    if missing:
        raise DataMissing(missing)
    return manifest.data_path


def pdf_folder(manifest: CorpusManifest, warehouse: Path) -> Path:
    """The corpus's PDF folder (the demo's is generated under the warehouse first)."""
    if manifest.adapter == "demo":
        return demo.pdf_folder(manifest, warehouse)
    if manifest.adapter == "openragbench":  # a drawn sample: links to the chosen PDFs under the warehouse
        return openragbench.pdf_folder(manifest, data_dir(manifest), warehouse)
    return ADAPTERS[manifest.adapter].pdf_folder(manifest, data_dir(manifest))


def read_corpus_questions(manifest: CorpusManifest, documents: set[str]) -> LoadedQuestions:
    """Questions of the corpus given the document ids it holds (readable or not)."""
    folder = manifest.resolve(".") if manifest.adapter == "demo" else data_dir(manifest)
    return ADAPTERS[manifest.adapter].read_questions(manifest, folder, documents)


def data_available(manifest: CorpusManifest) -> bool:
    return missing_data(manifest) is None
