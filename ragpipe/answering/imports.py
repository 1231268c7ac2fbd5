"""Answer sets a corpus imports beside its engine's answers (its manifest's `imports`)."""

from __future__ import annotations

import pandas as pd

from ragpipe.answering.labels import LABEL_COLUMNS, read_labeled_folder
from ragpipe.answering.run import ANSWER_COLUMNS, imported_answers
from ragpipe.corpus.manifest import CorpusManifest
from ragpipe.inputs.problems import Problem


def read_imports(manifest: CorpusManifest) -> tuple[pd.DataFrame, list[Problem]]:
    """Every imported labelled answer of the corpus, with the problems met reading them."""
    frames, problems = [], []
    for item in manifest.imports:
        folder = manifest.import_path(item)
        if not folder.is_dir():
            problems.append(Problem(str(folder), 0, "imports.path", "folder does not exist"))
            continue
        labels, found = read_labeled_folder(folder)
        frames.append(labels)
        problems.extend(found)
    return (pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=LABEL_COLUMNS)), problems


def import_answers(
    manifest: CorpusManifest, corpus: str, config: str, known_questions: set[str]
) -> tuple[pd.DataFrame, list[Problem]]:
    labels, problems = read_imports(manifest)
    unknown = labels[~labels["question_id"].isin(known_questions)]
    problems += [
        Problem(r.file, int(r.line), "financebench_id", f"unknown question {r.question_id!r}")
        for r in unknown.itertuples()
    ]
    known = labels[labels["question_id"].isin(known_questions)]
    twice = known.duplicated(["answer_set", "question_id"], keep="first")
    problems += [
        Problem(r.file, int(r.line), "financebench_id", f"second answer to {r.question_id!r} in one file")
        for r in known[twice].itertuples()
    ]
    known = known[~twice]
    return (imported_answers(known, corpus, config) if len(known) else pd.DataFrame(columns=ANSWER_COLUMNS)), problems
