"""Corpus adapters: where a corpus's PDFs are and how its questions are read.

Each adapter turns one upstream layout into the same two things: a folder of
PDFs and a list of validated questions (plus a problem per bad row). Pick an
adapter by name in the corpus manifest.
"""

from __future__ import annotations

from pathlib import Path

from ragpipe.corpus.adapters import aragog, demo, financebench, folder, openragbench
from ragpipe.corpus.adapters.contained import DataOutside, contained
from ragpipe.corpus.ingest import pdf_files
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
    """The corpus's data folder is absent (e.g. no ../shared on a fresh clone), or lacks files its adapter reads."""


def _lacking(manifest: CorpusManifest, folder: Path) -> list[str]:
    """What of its adapter's REQUIRED layout the data folder lacks: a file by its name, a folder (`name/`)
    that is absent or holds no PDF."""
    lacking = []
    for name in getattr(ADAPTERS[manifest.adapter], "REQUIRED", ()):
        path = folder / name.rstrip("/")
        if not name.endswith("/"):
            lacking += [] if path.is_file() else [name]
        elif not path.is_dir():
            lacking.append(name)
        elif not any(p.suffix.lower() == ".pdf" for p in path.iterdir()):
            lacking.append(f"{name} (it holds no PDF)")
    return lacking


def outside_data(manifest: CorpusManifest) -> str | None:
    """The refusal of the first data file that is a link out of the data folder, if one is (contained.py)."""
    folder = manifest.data_path
    names = getattr(ADAPTERS[manifest.adapter], "REQUIRED", ()) or ("",)  # the folder adapter: the folder itself
    for name in names:
        path = folder / name.rstrip("/")
        try:
            for file in pdf_files(path) if name.endswith("/") or not name else [path]:
                contained(folder, file)
        except DataOutside as exc:
            return f"corpus {manifest.name!r}: {exc}"
    return None


def missing_data(manifest: CorpusManifest) -> str | None:
    """One line saying what is missing, where it was looked for and where to get it; None if all is there.
    Checked before any run starts (with `data_problem`), so an empty or half-copied folder is this line,
    not a traceback from deep inside ingest."""
    if manifest.adapter == "demo":
        return None
    folder = manifest.data_path
    if not folder.is_dir():
        what = "does not exist"
    else:
        lacking = _lacking(manifest, folder)
        if not lacking:
            return None
        what = "lacks " + (", ".join(lacking[:-1]) + " and " + lacking[-1] if len(lacking) > 1 else lacking[0])
    hint = f"set {manifest.data_dir_env} or pass --data-dir" if manifest.data_dir_env else "pass --data-dir"
    get = f"; get it from {manifest.upstream} (docs/corpora.md)" if manifest.upstream else " (docs/corpora.md)"
    return f"corpus {manifest.name!r}: its data folder {folder} {what} ({hint}){get}"


def data_problem(manifest: CorpusManifest) -> str | None:
    """What keeps a run from reading the corpus's data, in one line (absent, lacking, or leading out)."""
    return missing_data(manifest) or (None if manifest.adapter == "demo" else outside_data(manifest))


def data_dir(manifest: CorpusManifest) -> Path:
    missing = missing_data(manifest)
    if missing:
        raise DataMissing(missing)
    outside = outside_data(manifest)
    if outside:
        raise DataOutside(outside)
    return manifest.data_path


# adapters whose PDF folder a run writes under the warehouse: the demo generates its PDFs there, a drawn
# sample links the chosen ones there
_WRITTEN_UNDER_WAREHOUSE = {
    "demo": lambda manifest, warehouse: demo.pdf_folder(manifest, warehouse),
    "openragbench": lambda manifest, warehouse: openragbench.pdf_folder(manifest, data_dir(manifest), warehouse),
}


def pdf_folder_is_written(manifest: CorpusManifest) -> bool:
    """Whether asking for the corpus's PDF folder writes it under the warehouse (the demo, a drawn sample)."""
    return manifest.adapter in _WRITTEN_UNDER_WAREHOUSE


def pdf_folder(manifest: CorpusManifest, warehouse: Path) -> Path:
    """The corpus's PDF folder (the demo's is generated under the warehouse first)."""
    if pdf_folder_is_written(manifest):
        return _WRITTEN_UNDER_WAREHOUSE[manifest.adapter](manifest, warehouse)
    data = data_dir(manifest)
    folder = ADAPTERS[manifest.adapter].pdf_folder(manifest, data)
    for path in pdf_files(folder) if folder.is_dir() else []:
        contained(data, path)  # DataOutside for a link out of the data folder
    return folder


def read_corpus_questions(manifest: CorpusManifest, documents: set[str]) -> LoadedQuestions:
    """Questions of the corpus given the document ids it holds (readable or not)."""
    folder = manifest.resolve(".") if manifest.adapter == "demo" else data_dir(manifest)
    return ADAPTERS[manifest.adapter].read_questions(manifest, folder, documents)


def data_available(manifest: CorpusManifest) -> bool:
    return missing_data(manifest) is None
