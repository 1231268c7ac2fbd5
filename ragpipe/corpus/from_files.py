"""A corpus made of a question file, for systems whose answers are files: `ragpipe corpus new`.

Two systems' answers to the same questions are compared, gated, reviewed and labelled as a corpus's
answer sets are, so the question file becomes a corpus of the `folder` adapter: its manifest
(corpora/NAME.yaml), a copy of the file beside it (corpora/NAME/questions.*: a corpus's files stay in its
folder), and a PDF folder, empty unless one is given. With no documents the pipeline ingests nothing,
retrieves nothing (the scorecards' retrieval columns say "no documents"), and grades every answer set
imported with `ragpipe run --engine import`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from ragpipe.corpus.manifest import CorpusManifest, ManifestError
from ragpipe.corpus.questions import read_questions

SUFFIXES = (".yaml", ".yml", ".jsonl", ".csv")


def new_corpus(corpora: Path, name: str, questions: Path, documents: Path | None = None) -> tuple[Path, int]:
    """(the manifest written, how many questions it holds); refused, writing nothing, when the name is
    taken or not a corpus name, or a row of the question file is bad (each bad row named by line)."""
    manifest = corpora / f"{name}.yaml"
    try:
        CorpusManifest(name=name, adapter="folder")
    except ValueError:
        raise ManifestError(
            f"corpus name {name!r}: lower-case letters, digits, `_` and `-`, from a letter or digit"
        ) from None
    if manifest.exists() or (corpora / name).exists():
        raise ManifestError(f"corpus {name!r} exists already ({manifest}): choose another name")
    if questions.suffix.lower() not in SUFFIXES:
        raise ManifestError(f"{questions}: a question file is YAML, JSON Lines or CSV ({', '.join(SUFFIXES)})")
    known: set[str] | None = None if documents is not None else set()  # without documents, none may be named
    loaded = read_questions(questions, known)
    if loaded.problems:
        said = "; ".join(str(p) for p in loaded.problems[:5])
        more = f" (and {len(loaded.problems) - 5} more)" if len(loaded.problems) > 5 else ""
        raise ManifestError(f"{said}{more}")
    if not loaded.questions:
        raise ManifestError(f"{questions}: holds no question")
    folder = corpora / name
    pdfs = documents.resolve() if documents is not None else folder / "documents"
    pdfs.mkdir(parents=True, exist_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    copied = folder / f"questions{questions.suffix.lower()}"
    shutil.copyfile(questions, copied)
    written = {
        "name": name,
        "adapter": "folder",
        "description": f"questions from {questions.name}"
        + (f", documents in {documents}" if documents is not None else ", no documents (answers from files)"),
        "data_dir": str(pdfs) if documents is not None else f"{name}/documents",
        "questions": f"{name}/{copied.name}",
    }
    manifest.write_text(yaml.safe_dump(written, sort_keys=False), encoding="utf-8")
    return manifest, len(loaded.questions)
